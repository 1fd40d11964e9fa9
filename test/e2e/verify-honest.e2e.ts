// docs/end-user-apps.md: /verify says plainly what a person can do, on a phone and a desktop. A merchant's passkey
// requirement leads to creating a passkey (or says this browser cannot), never to a "Send my answer"
// that can only fail (item 6); an under-age person's filled button is Decline, with no passkey offer in
// its way (item 7); a test session names the merchant and the age and marks every result in words
// (item 8); a slow answer says "Sending…", a finished identity check and a new passkey are confirmed
// (item 10); and the smaller things seen: one round of form errors, a decline's icon, one page for every
// broken link, the brand and the sandbox choices in the page's language, a signed-in page that fits.
// Four registrations per viewport and the merchant's: under the server's 10 a minute per address.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "./browser";
import { fillDateOfBirth, signUpAndFillIdentity } from "./end-user";
import { api, birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, openPage, useVerifyEnv, VIEWPORTS } from "./verify-setup";

const env = useVerifyEnv();

/** A platform authenticator with user verification, as a phone's biometrics would be. */
async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/** Whether a button is drawn filled (the page's main action) rather than outlined. */
const filled = (page: Page, selector: string) => page.locator(selector).evaluate((el) => !el.classList.contains("secondary"));

async function verifiedOn(page: Page, dob = birthDateYearsAgo(30)) {
  await signUpAndFillIdentity(page, dob);
  await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
  await page.locator("#step-decide").waitFor({ state: "visible" });
}

describe.each(["phone", "desktop"] as const)("/verify on a %s", (viewport) => {
  it("item 6: a merchant that requires a passkey leads to creating one (filled), never to a Send that can only fail; the new passkey is confirmed, can be removed, and approves", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { require_passkey: true });
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await verifiedOn(page);
    await page.locator("#passkey-required").waitFor({ state: "visible" });
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    expect(await page.locator("#approve").isVisible()).toBe(false);
    expect(await filled(page, "#passkey-create")).toBe(true);
    expect(await filled(page, "#decline")).toBe(false);
    // No "Not now": without a passkey there is nothing to come back to but declining.
    expect(await page.locator("#passkey-skip").isVisible()).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/honest-passkey-required-${viewport}.png`, fullPage: true });

    await withAuthenticator(page);
    await page.locator("#passkey-offer-password").fill("person-password-1");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    // Item 10: the new passkey is confirmed where it can be seen, and the answer can now be sent.
    await page.locator("#passkey-settings-notice").waitFor({ state: "visible" });
    await expect(page.locator("#passkey-settings-notice").textContent()).resolves.toBe(
      "Passkey created. Your approvals are now confirmed with it.",
    );
    await page.locator("#approve").waitFor({ state: "visible" });
    expect(await filled(page, "#approve")).toBe(true);
    expect(await filled(page, "#decline")).toBe(false);
    await expectAccessible(page);
    // Removing it is confirmed with the passkey itself (the server refuses it otherwise): the answer step
    // goes back to the passkey offer. A new passkey, and the approval goes through.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.locator("#passkey-list li button", { hasText: "Remove" }).click();
    await expect.poll(() => page.locator("#passkey-list li").count()).toBe(0);
    await page.locator("#approve").waitFor({ state: "hidden" });
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    await page.locator("#passkey-offer-password").fill("person-password-1");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.locator("#approve").waitFor({ state: "visible" });
    await page.locator("#approve").click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({ status: "APPROVED" });
    expect(problems).toEqual([]);
  });

  it("item 6: a browser without passkeys is told plainly, and Decline is the filled button", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { require_passkey: true });
    const { page, problems } = await openPage(env.browser, viewport);
    await page.addInitScript(() => {
      delete (globalThis as any).PublicKeyCredential;
    });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await verifiedOn(page);
    await page.locator("#passkey-required").waitFor({ state: "visible" });
    await expect(page.locator("#passkey-required").textContent()).resolves.toContain("this browser cannot use passkeys");
    expect(await page.locator("#approve").isVisible()).toBe(false);
    expect(await page.locator("#passkey-offer").isVisible()).toBe(false);
    expect(await filled(page, "#decline")).toBe(true);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("item 7: an under-age person's filled button is Decline, with no passkey offer", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 21);
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await verifiedOn(page, birthDateYearsAgo(19));
    await page.locator("#decide-underage").waitFor({ state: "visible" });
    expect(await page.locator("#approve").isVisible()).toBe(false);
    expect(await filled(page, "#decline")).toBe(true);
    // The offer would appear after the passkeys are read: wait for that read, then look.
    await page.waitForLoadState("networkidle");
    expect(await page.locator("#passkey-offer").isVisible()).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/honest-under-age-${viewport}.png`, fullPage: true });
    await page.locator("#decline").click();
    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    // The same link again: "already answered", with the decline's own icon, not a check mark.
    await page.reload();
    await page.locator('#step-result[data-result="used"]').waitFor({ state: "visible" });
    expect(await page.locator("#result-icon svg:not([hidden])").getAttribute("data-icon")).toBe("minus");
    expect(problems).toEqual([]);
  });

  it("item 8: a test session names the merchant and the age, and every result says it was a test, in words", async () => {
    const testKey = await api<{ apiKey: string }>(env.server.baseUrl, "POST", "/api/keys", {
      token: env.merchant.token,
      body: { name: `honest ${viewport}`, mode: "test" },
    });
    const { page, problems } = await openPage(env.browser, viewport);
    // Not "You are verified": a chosen test outcome has a title of its own.
    const titles = {
      APPROVED: "Test outcome sent: over 19",
      DENIED_UNDER_AGE: "Test outcome sent: under 19",
      DENIED_REFUSED: "Test outcome sent: refused",
      EXPIRED: "This request has expired",
    };
    for (const outcome of ["APPROVED", "DENIED_UNDER_AGE", "DENIED_REFUSED", "EXPIRED"] as const) {
      const session = await openSession(env.server.baseUrl, testKey.body.data.apiKey, 19);
      await page.goto(verifyLink(env.server.baseUrl, session));
      await page.locator("#step-test").waitFor({ state: "visible" });
      await expect(page.locator("#step-test .notice.warn").textContent()).resolves.toMatch(
        /^Test mode This is a test request from Cellar & Co for the age of 19:/,
      );
      await page.locator(`[data-test-outcome="${outcome}"]`).click();
      await page.locator("#step-result").waitFor({ state: "visible" });
      await page.locator("#result-test").waitFor({ state: "visible" });
      await expect(page.locator("#result-title").textContent()).resolves.toBe(titles[outcome]);
      await expect(page.locator("#result-test").textContent()).resolves.toBe(
        "Test mode This was a test request from Cellar & Co: nothing was verified and no real answer was shared.",
      );
      await expectAccessible(page);
      if (outcome === "APPROVED") {
        await page.screenshot({ path: `${ARTIFACTS}/honest-test-approved-${viewport}.png`, fullPage: true });
        // The same link again ("already answered") is marked too.
        await page.reload();
        await page.locator('#step-result[data-result="used"]').waitFor({ state: "visible" });
        await page.locator("#result-test").waitFor({ state: "visible" });
      }
    }
    // A live session's result carries no test marker.
    const live = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    await page.goto(verifyLink(env.server.baseUrl, live));
    await page.locator("#intro-decline").click();
    await page.locator("#decline-confirm").click();
    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    expect(await page.locator("#result-test").isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });

  it("item 10: the form names every missing field at once; the identity check is confirmed; a slow answer says Sending…; item 2: signed in, the German page fits, its brand, date parts and sandbox choices in German", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByLabel("Email").first().fill(uniqueEmail("honest"));
    await page.getByLabel("Password").first().fill("person-password-1");
    await page.getByRole("button", { name: "Create account and continue" }).click();
    await page.locator("#applicant-form").waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#applicant-dob-error").waitFor({ state: "visible" });
    expect(await page.locator("#applicant-firstName-error").isVisible()).toBe(true);
    expect(await page.locator("#applicant-lastName-error").isVisible()).toBe(true);
    // Every part of the date is marked, and the first takes the focus.
    await expect(page.locator("#applicant-dob-year").getAttribute("aria-invalid")).resolves.toBe("true");
    await page.getByLabel("First name").fill("Alex");
    await page.getByLabel("Last name").fill("Morgan");
    // A day the calendar does not have is refused before anything is sent.
    await fillDateOfBirth(page, "1990-02-31");
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await expect
      .poll(() => page.locator("#applicant-dob-error").textContent())
      .toBe("Enter your date of birth as on your identity document: a real date in the past.");
    expect(await page.locator("#applicant-firstName-error").isVisible()).toBe(false);
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id as string)).toBe("applicant-dob-day");
    await expectAccessible(page);
    await fillDateOfBirth(page, birthDateYearsAgo(30));
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#decide-verified").waitFor({ state: "visible" });
    await expect(page.locator("#decide-verified").textContent()).resolves.toBe(
      "Your identity is verified. You will not need to do this again.",
    );
    await expectAccessible(page);
    await page.getByRole("button", { name: "Not now" }).click();

    // The answer held by the network for a while: the button says what is happening.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/complete", async (route) => {
      await held;
      await route.continue();
    });
    await page.locator("#approve").click();
    await expect.poll(() => page.locator("#approve").textContent(), { timeout: 5_000 }).toBe("Sending…");
    release();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });

    // The same person on a German request (still signed in: no second registration, which the per-address
    // limit counts): the brand and the sandbox's choices are German, and the signed-in page fits.
    const german = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { locale: "de" });
    await page.goto(verifyLink(env.server.baseUrl, german));
    await page.locator("#step-decide").waitFor({ state: "visible" });
    await page.locator("#switch-account").waitFor({ state: "visible" });
    await expect(page.locator(".brand").textContent()).resolves.toContain("Altersprüfung");
    // The date of birth in the page's language and order, not the browser's mm/dd/yyyy.
    await expect(page.locator("#applicant-dob legend").textContent()).resolves.toBe("Geburtsdatum");
    expect(await page.locator("#applicant-dob label").allTextContents()).toEqual(["Tag", "Monat", "Jahr"]);
    const options = await page.locator("#applicant-result option").allTextContents();
    expect(options).toHaveLength(2);
    expect(options.filter((text) => /^(Clear|Consider)\b/.test(text))).toEqual([]);
    const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
    expect(width).toBeLessThanOrEqual(VIEWPORTS[viewport].width);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/honest-de-signed-in-${viewport}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it("one page for every broken link: a malformed link and a wrong nonce show the same title, words and icon", async () => {
    const { page, problems } = await openPage(env.browser, viewport);
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    await page.goto(verifyLink(env.server.baseUrl, { session_id: session.session_id, nonce: "not-the-nonce" }));
    await page.locator('#step-result[data-result="invalid"]').waitFor({ state: "visible" });
    const wrongNonce = {
      title: await page.locator("#result-title").textContent(),
      text: await page.locator("#result-text").textContent(),
      icon: await page.locator("#result-icon svg:not([hidden])").getAttribute("data-icon"),
    };
    await page.goto(`${env.server.baseUrl}/verify?session_id=broken`);
    const malformed = {
      title: await page.locator("h1").textContent(),
      text: await page.locator(".result h1 + p").textContent(),
      icon: await page.locator(".result-icon svg:not([hidden])").getAttribute("data-icon"),
    };
    expect(malformed).toEqual(wrongNonce);
    await expectAccessible(page);

    // The malformed link's page is itself a 404.
    expect(problems.filter((p) => !p.includes("/verify?session_id=broken"))).toEqual([]);
  });
});
