// The end user's first screen, before any sign-in (docs/end-user-apps.md): who asks and whether the link is still
// good, "Not now" without an account, the result screens' way back, the page in the person's language,
// and nothing left behind after "Use another account". Phone and desktop viewports; axe on every screen.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "./browser";
import { api, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, openPage as open, useVerifyEnv, type Viewport } from "./verify-setup";

const env = useVerifyEnv();
const openPage = (viewport: Viewport, options?: Parameters<typeof open>[2]) => open(env.browser, viewport, options);

const accountFormVisible = (page: Page) => page.locator("#step-account").isVisible();

describe.each(["phone", "desktop"] as const)("first screen on a %s", (viewport) => {
  it("names the merchant and the age before any sign-in; 'Not now' means later, and declining without an account is its own choice", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 21);
    const { page, problems } = await openPage(viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    const title = page.locator("#intro-title");
    await title.waitFor({ state: "visible" });
    await expect(title.textContent()).resolves.toBe("Cellar & Co asks you to confirm that you are at least 21");
    await expect(page.locator("#intro-valid").textContent()).resolves.toMatch(/^This link is valid until /);
    expect(await accountFormVisible(page)).toBe(true);
    await expectAccessible(page);

    // "Not now" is later: nothing is sent, the link stays valid, and the way back is one tap.
    await page.getByRole("button", { name: "Not now" }).click();
    await page.locator("#step-later").waitFor({ state: "visible" });
    await expect(page.locator("#later-text").textContent()).resolves.toMatch(
      /^Nothing was sent to Cellar & Co\. This link stays valid until /,
    );
    await expectAccessible(page);
    await page.getByRole("button", { name: "Go back to the request" }).click();
    expect(await accountFormVisible(page)).toBe(true);
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("PENDING");

    await page.getByRole("button", { name: "Decline this request" }).click();
    await page.locator("#step-decline").waitFor({ state: "visible" });
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe("decline-title");
    await expectAccessible(page);
    // Going back changes nothing; declining is a second, deliberate step.
    await page.getByRole("button", { name: "Go back" }).click();
    expect(await accountFormVisible(page)).toBe(true);
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("PENDING");

    await page.getByRole("button", { name: "Decline this request" }).click();
    await page.getByRole("button", { name: "Yes, decline" }).click();
    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe("result-title");
    await expect(page.locator("#result-close").isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-declined-${viewport}.png`, fullPage: true });
    const polled = await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id);
    expect(polled.status).toBe("DENIED");
    expect(problems).toEqual([]);
  });

  it("tells a wrong nonce and an unknown session at once, before any sign-in", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(viewport);
    for (const link of [
      { session_id: session.session_id, nonce: "W".repeat(43) },
      { session_id: `ses_${"Q".repeat(24)}`, nonce: session.nonce },
    ]) {
      await page.goto(verifyLink(env.server.baseUrl, link));
      await page.locator('#step-result[data-result="invalid"]').waitFor({ state: "visible" });
      expect(await accountFormVisible(page)).toBe(false);
      await expect(page.locator("#result-title").textContent()).resolves.toBe("This link is not valid");
      await expectAccessible(page);
    }
    expect(problems).toEqual([]);
  });

  it("tells an answered link at once: what was answered and when", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const declined = await fetch(`${env.server.baseUrl}/api/age-verification/session/${session.session_id}/decline`, {
      method: "POST",
      headers: { "x-session-nonce": session.nonce },
    });
    expect(declined.status).toBe(200);
    const { page, problems } = await openPage(viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator('#step-result[data-result="used"]').waitFor({ state: "visible" });
    await expect(page.locator("#result-title").textContent()).resolves.toMatch(/^This request was already answered: declined on .+\d/);
    expect(await accountFormVisible(page)).toBe(false);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });
});

describe("the page in the person's language", () => {
  it("opens in French from Accept-Language, and the switcher changes it to German", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await openPage("phone", { locale: "fr-FR" });
    await page.goto(verifyLink(env.server.baseUrl, session));
    const title = page.locator("#intro-title");
    await title.waitFor({ state: "visible" });
    await expect(page.locator("html").getAttribute("lang")).resolves.toBe("fr");
    await expect(title.textContent()).resolves.toBe("Cellar & Co vous demande de confirmer que vous avez au moins 18 ans");
    await expect(page.getByRole("button", { name: "Pas maintenant" }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Deutsch" }).click();
    await page.locator("html[lang=de]").waitFor({ state: "attached" });
    await title.waitFor({ state: "visible" });
    await expect(title.textContent()).resolves.toBe("Cellar & Co bittet Sie zu bestätigen, dass Sie mindestens 18 Jahre alt sind");
    expect(problems).toEqual([]);
  });
});

describe("a shared phone", () => {
  it("'Use another account' leaves no field filled and nothing in sessionStorage", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage("phone");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#register-email").fill(uniqueEmail("shared"));
    await page.locator("#register-password").fill("person-password-1");
    await page.getByRole("button", { name: "Create account and continue" }).click();
    await page.locator("#step-kyc").waitFor({ state: "visible" });
    await page.locator("#applicant-firstName").fill("Ada");
    await page.locator("#applicant-lastName").fill("Lovelace");
    await expectAccessible(page);

    await page.getByRole("button", { name: "Use another account" }).click();
    await page.locator("#step-account").waitFor({ state: "visible" });
    const filled = await page.evaluate(() =>
      [...(globalThis as any).document.querySelectorAll("#verify-app input")]
        .filter((i: any) => i.type !== "hidden" && i.value !== "")
        .map((i: any) => i.id),
    );
    expect(filled).toEqual([]);
    await expect(page.evaluate(() => (globalThis as any).sessionStorage.length)).resolves.toBe(0);
    await expect(page.locator("#account-notice").isVisible()).resolves.toBe(false);
    expect(problems).toEqual([]);
  });
});

describe("the way back and test mode", () => {
  it("declining offers the button back to the merchant's return_url, with session_id added", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, {
      return_url: "https://shop.example/after-check?step=age",
    });
    const { page, problems } = await openPage("desktop");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByRole("button", { name: "Decline this request" }).click();
    await page.getByRole("button", { name: "Yes, decline" }).click();
    await page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    const back = page.locator("#result-return");
    await expect(back.isVisible()).resolves.toBe(true);
    const href = new URL((await back.getAttribute("href"))!);
    expect(`${href.origin}${href.pathname}`).toBe("https://shop.example/after-check");
    expect(href.searchParams.get("step")).toBe("age");
    expect(href.searchParams.get("session_id")).toBe(session.session_id);
    await expect(page.locator("#result-close").isVisible()).resolves.toBe(false);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("a test session shows the outcome chooser before any sign-in, and the chosen outcome is the answer", async () => {
    const created = await api<{ apiKey: string }>(env.server.baseUrl, "POST", "/api/keys", {
      token: env.merchant.token,
      body: { name: "e2e test", mode: "test" },
    });
    expect(created.status).toBe(201);
    const session = await openSession(env.server.baseUrl, created.body.data.apiKey, 18, { return_url: "https://shop.example/back" });
    const { page, problems } = await openPage("phone");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#step-test").waitFor({ state: "visible" });
    expect(await accountFormVisible(page)).toBe(false);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Approve as over age" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await expect(page.locator("#result-return").getAttribute("href")).resolves.toBe(
      `https://shop.example/back?session_id=${session.session_id}`,
    );
    expect(await poll(env.server.baseUrl, created.body.data.apiKey, session.session_id)).toMatchObject({ status: "APPROVED" });
    expect(problems).toEqual([]);
  });
});
