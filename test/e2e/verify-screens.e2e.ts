// Every screen of /verify and of the account link pages, on a phone and a desktop (docs/end-user-apps.md): the
// page in the session's `locale`, axe-core with no serious or critical violation on each step, no
// focus ring drawn on a heading the script focused at load, and the account link pages in French
// from Accept-Language. The expired screens are in verify-expired.e2e.ts (a server with 5 s sessions),
// the Onfido step in verify-onfido.e2e.ts and the passkey step in passkeys.e2e.ts.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "./browser";
import { signUpAndFillIdentity } from "./end-user";
import { api, birthDateYearsAgo, mailedLink, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, focusedId, openPage, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();

/** The outline Chromium draws around the focused element (its style and width). */
const outlineOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const style = (globalThis as any).getComputedStyle(element);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });

describe.each(["phone", "desktop"] as const)("/verify on a %s", (viewport) => {
  it("opens in German from the session's locale (over Accept-Language), with no focus ring on the focused heading", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { locale: "de" });
    const { page, problems } = await openPage(env.browser, viewport, { locale: "fr-FR", hasTouch: viewport === "phone" });
    await page.goto(verifyLink(env.server.baseUrl, session));
    const title = page.locator("#intro-title");
    await title.waitFor({ state: "visible" });
    await expect(page.locator("html").getAttribute("lang")).resolves.toBe("de");
    await expect(title.textContent()).resolves.toBe("Cellar & Co bittet Sie zu bestätigen, dass Sie mindestens 18 Jahre alt sind");
    await expect(page.title()).resolves.toBe("Cellar & Co bittet Sie zu bestätigen, dass Sie mindestens 18 Jahre alt sind");
    await expect(page.getByRole("tab", { name: "Konto erstellen" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Konto erstellen und weiter" }).isVisible()).resolves.toBe(true);
    // The script focused the heading at load for a screen reader; nobody pressed a key, so no ring.
    await expect.poll(() => focusedId(page)).toBe("intro-title");
    await expect(outlineOf(page, "#intro-title")).resolves.toMatch(/^none /);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-de-${viewport}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });

  it("every step of a sandbox verification passes axe: account tabs, identity with the countdown, answer, approved", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#step-account").waitFor({ state: "visible" });
    await expectAccessible(page);
    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.locator("#panel-login").waitFor({ state: "visible" });
    await page.locator("details summary", { hasText: "Forgot your password?" }).click();
    await expectAccessible(page);
    await page.getByRole("tab", { name: "Create account" }).click();

    await signUpAndFillIdentity(page, birthDateYearsAgo(30));
    await expect(page.locator("#countdown").textContent()).resolves.toMatch(/^Expires in \d+:\d\d$/);
    await expect(page.locator("#countdown").getAttribute("class")).resolves.toBe("countdown");
    await expect(page.title()).resolves.toBe("Verify your identity");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();

    await page.locator("#step-decide").waitFor({ state: "visible" });
    await expect(page.title()).resolves.toBe("Your answer");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await expect(page.title()).resolves.toBe("You are verified");
    await expectAccessible(page);
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("APPROVED");
    expect(problems).toEqual([]);
  });

  it("a verified person under the age is told before answering (axe on that step), and the under-age result passes axe", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 21);
    const { page, problems } = await openPage(env.browser, viewport);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await signUpAndFillIdentity(page, birthDateYearsAgo(19));
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#decide-underage").waitFor({ state: "visible" });
    await expect(page.locator("#decide-underage").textContent()).resolves.toMatch(
      /^Your verified date of birth shows you are under 21: you cannot confirm this request\./,
    );
    expect(await page.locator("#approve").isVisible()).toBe(false);
    await expectAccessible(page);

    // The under-age result screen: a test session answered "under age" shows it.
    const testKey = await api<{ apiKey: string }>(env.server.baseUrl, "POST", "/api/keys", {
      token: env.merchant.token,
      body: { name: `e2e ${viewport}`, mode: "test" },
    });
    const testSession = await openSession(env.server.baseUrl, testKey.body.data.apiKey, 18);
    await page.goto(verifyLink(env.server.baseUrl, testSession));
    await page.getByRole("button", { name: "Send “under age” (a denial)" }).click();
    await page.locator('#step-result[data-result="underage"]').waitFor({ state: "visible" });
    // A test session's outcome has its own title, beside the "Test mode" marker (docs/end-user-apps.md).
    await expect(page.title()).resolves.toBe("Test outcome sent: under 18");
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it("the account link pages speak French from Accept-Language: email confirmation and password reset", async () => {
    const email = uniqueEmail("lien");
    await api(env.server.baseUrl, "POST", "/api/auth/register", { body: { email, password: "person-password-1", userType: "PERSONAL" } });
    const { page, problems } = await openPage(env.browser, viewport, { locale: "fr-FR" });
    await page.goto(await mailedLink(env.server.baseUrl, email));
    await expect(page.locator("html").getAttribute("lang")).resolves.toBe("fr");
    await expect(page.locator("#account-title").textContent()).resolves.toBe("Confirmez votre e-mail");
    await page.locator("#account-status").waitFor({ state: "visible" });
    await expect(page.locator("#account-status").textContent()).resolves.toBe(
      `Merci : ${email} est confirmé. Vous pouvez fermer cet onglet et revenir à l’application.`,
    );
    await expectAccessible(page);

    await api(env.server.baseUrl, "POST", "/api/auth/forgot-password", { body: { email } });
    // forgot-password mails in deferred work: wait for the second mail (the reset link).
    let reset = "";
    await expect
      .poll(async () => (reset = await mailedLink(env.server.baseUrl, email)), { timeout: 10_000 })
      .toContain("/account/reset-password");
    await page.goto(reset);
    await expect(page.locator("#account-title").textContent()).resolves.toBe("Choisissez un nouveau mot de passe");
    await page.getByLabel("Nouveau mot de passe", { exact: true }).fill("short");
    await page.getByRole("button", { name: "Enregistrer le nouveau mot de passe" }).click();
    await expect.poll(() => page.locator("#reset-newPassword-error").textContent()).toBe("Utilisez de 8 à 128 caractères.");
    await expectAccessible(page);
    await page.getByLabel("Nouveau mot de passe", { exact: true }).fill("a-new-password-2");
    await page.getByRole("button", { name: "Enregistrer le nouveau mot de passe" }).click();
    await page.locator("#account-status").waitFor({ state: "visible" });
    await expect(page.locator("#account-status").textContent()).resolves.toBe(
      "Votre mot de passe est modifié. Connectez-vous avec le nouveau mot de passe.",
    );
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/account-reset-fr-${viewport}.png`, fullPage: true });
    // The 422 for the short password is the one HTTP error this test provokes (and chromium logs it).
    expect(problems.filter((p) => !/HTTP 422 .*\/api\/auth\/reset-password$|status of 422/.test(p))).toEqual([]);
  });
});
