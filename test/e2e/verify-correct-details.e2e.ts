// docs/end-user-apps.md: after a refused ("consider") check the person can correct a mistyped name or date
// of birth on /verify. A typed child's year (a typo) is refused, corrected to the adult's year, checked
// again, and the answer is APPROVED: only the corrected date, verified, can approve an 18+ request (the
// typo would have been DENIED). On a phone (390 px) and a desktop (1280 px), axe on the correction screen;
// the correction screen fits 320 px in each of the five languages.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { seriousViolations } from "./axe";
import { ARTIFACTS } from "./browser";
import { fillDateOfBirth, signUpAndFillIdentity, submitIdentityByIds } from "./end-user";
import { api, birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, focusedId, openPage, useVerifyEnv, VIEWPORTS, type Viewport } from "./verify-setup";

const env = useVerifyEnv();

const pageWidth = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    return Math.max(doc.documentElement.scrollWidth, doc.body.scrollWidth) as number;
  });

describe.each(Object.keys(VIEWPORTS) as Viewport[])("/verify on a %s: correcting the details after a refused check", (viewport) => {
  it("a mistyped year is refused, corrected, checked again and the corrected date answers: APPROVED", async () => {
    const base = env.server.baseUrl;
    const session = await openSession(base, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(base, session));

    // The typo: a child's year. A "consider" check refuses it.
    await signUpAndFillIdentity(page, birthDateYearsAgo(10));
    await page.locator("#applicant-result").selectOption("consider");
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#kyc-notice").waitFor({ state: "visible" });
    await expect(page.locator("#kyc-notice").textContent()).resolves.toContain("We could not verify your identity");
    expect(await page.locator("#applicant-form").isVisible()).toBe(false);

    // The way to correct: the applicant form again, the sandbox's outcome chooser hidden meanwhile.
    await page.getByRole("button", { name: "Correct my name or date of birth" }).click();
    await page.locator("#applicant-form").waitFor({ state: "visible" });
    expect(await page.locator("#sandbox-form").isVisible()).toBe(false);
    expect(await page.locator("#kyc-correct").isVisible()).toBe(false);
    await expect(page.locator("#applicant-correct-intro").textContent()).resolves.toContain(
      "exactly as they appear on your identity document",
    );
    await expect.poll(() => focusedId(page)).toBe("applicant-firstName");
    await page.screenshot({ path: `${ARTIFACTS}/verify-correct-${viewport}-1-form.png`, fullPage: true });
    await expectAccessible(page);

    // The same validation as the first time: an impossible date is refused on the page, nothing is sent.
    await page.getByLabel("First name").fill("Alex");
    await page.getByLabel("Last name").fill("Morgan");
    await fillDateOfBirth(page, "1990-02-31");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/kyc/applicant")) sent.push(request.method());
    });
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#applicant-dob-error").waitFor({ state: "visible" });
    expect(sent).toEqual([]);
    await expectAccessible(page);

    // The corrected date, and a clear check: the person is verified with it and can approve.
    await fillDateOfBirth(page, birthDateYearsAgo(30));
    await page.locator("#applicant-result").selectOption("clear");
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#step-decide").waitFor({ state: "visible" });
    expect(sent).toEqual(["PUT"]);
    await page.screenshot({ path: `${ARTIFACTS}/verify-correct-${viewport}-2-decide.png`, fullPage: true });
    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await poll(base, env.merchant.apiKey, session.session_id)).toMatchObject({ status: "APPROVED", above_age_required: true });
    expect(problems).toEqual([]);
  });
});

describe("a duplicate identity", () => {
  it("a refusal for a document that verifies another account offers no correction", async () => {
    const base = env.server.baseUrl;
    // Two accounts with one sandbox document number: the second is refused as a duplicate identity.
    const number = `E2E${Date.now().toString(36).toUpperCase()}`.slice(0, 20);
    const email = uniqueEmail("duplicate");
    for (const address of [uniqueEmail("first"), email]) {
      const registered = await api(base, "POST", "/api/auth/register", {
        body: { email: address, password: "person-password-1", userType: "PERSONAL" },
      });
      const token = registered.body.data.token as string;
      await api(base, "POST", "/api/kyc/create-applicant", {
        token,
        body: { firstName: "Kim", lastName: "Lee", dob: birthDateYearsAgo(40) },
      });
      await api(base, "POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear", document_number: number } });
    }

    const session = await openSession(base, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(verifyLink(base, session));
    await page.locator("#tab-login").click();
    await page.locator("#login-email").fill(email);
    await page.locator("#login-password").fill("person-password-1");
    await page.locator("#login-form button[type=submit]").click();
    await page.locator("#kyc-notice").waitFor({ state: "visible" });
    await expect(page.locator("#kyc-notice").textContent()).resolves.toContain("already verifies another account");
    expect(await page.locator("#kyc-correct").isVisible()).toBe(false);
    expect(await page.locator("#applicant-form").isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });
});

describe("the correction screen at 320 px", () => {
  // One account for the five languages (registrations are limited to 10 a minute per address): refused
  // once, it finds the correction offered on each new request, in that request's language.
  it("fits and passes axe in each of the five languages", async () => {
    const base = env.server.baseUrl;
    const context = await env.browser.newContext({ viewport: { width: 320, height: 700 } });
    const page = await context.newPage();
    const findings: string[] = [];
    for (const [i, language] of (["en", "fr", "de", "es", "it"] as const).entries()) {
      const session = await openSession(base, env.merchant.apiKey, 18, { locale: language });
      await page.goto(verifyLink(base, session));
      if (i === 0) {
        await page.locator("#register-email").fill(uniqueEmail("correct-320"));
        await page.locator("#register-password").fill("person-password-1");
        await page.locator("#register-form button[type=submit]").click();
        await page.locator("#applicant-form").waitFor({ state: "visible" });
        await submitIdentityByIds(page, birthDateYearsAgo(30), "consider");
      }
      await page.locator("#kyc-correct").waitFor({ state: "visible" });
      if ((await pageWidth(page)) > 320) findings.push(`${language} refused: ${await pageWidth(page)} px`);
      await page.locator("#kyc-correct").click();
      await page.locator("#applicant-correct-intro").waitFor({ state: "visible" });
      expect(await page.locator("html").getAttribute("lang")).toBe(language);
      await page.screenshot({ path: `${ARTIFACTS}/verify-correct-320-${language}.png`, fullPage: true });
      if ((await pageWidth(page)) > 320) findings.push(`${language} correction: ${await pageWidth(page)} px`);
      for (const violation of await seriousViolations(page)) findings.push(`${language}: ${violation}`);
    }
    expect(findings).toEqual([]);
    await context.close();
  });
});
