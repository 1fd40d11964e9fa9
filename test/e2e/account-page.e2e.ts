// The person's own account page (/account) in chromium: in each of the five languages, at 320, 390 or
// 1280 px, a verified person signs in and sees what the service holds (email, identity and its date, the
// anonymous tokens of this browser), changes the password, changes the email, adds and removes a passkey
// (Chromium's virtual authenticator) and deletes the account, each first with a wrong password, which
// changes nothing. Every screen scanned by axe, no wider than the viewport, and screenshotted. Also: the
// way in from /verify ("Your account", signed in, with the way back), a business account told where its
// console is, and a personal account signing in to /console led here instead of a dead end.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { de } from "../../src/web/i18n/de";
import { en, type Catalogue } from "../../src/web/i18n/en";
import { es } from "../../src/web/i18n/es";
import { fr } from "../../src/web/i18n/fr";
import { it as italian } from "../../src/web/i18n/it";
import { verifiedPerson as verifiedPersonAt } from "./end-user";
import { api, mailedLink, openSession, uniqueEmail, verifyLink } from "./merchant";
import {
  checkScreen,
  expectAccessible,
  focusedId,
  openAtWidth,
  openPage,
  useVerifyEnv,
  withAuthenticator,
  type Width,
} from "./verify-setup";

const env = useVerifyEnv();

const PASSWORD = "person-password-1";
const NEW_PASSWORD = "person-password-2";

const LANGUAGES: { lang: string; cat: Catalogue; width: Width }[] = [
  { lang: "en", cat: en, width: 390 },
  { lang: "fr", cat: fr, width: 320 },
  { lang: "de", cat: de, width: 1280 },
  { lang: "es", cat: es, width: 390 },
  { lang: "it", cat: italian, width: 320 },
];

/** A personal account whose identity is verified through the sandbox (the API, as /verify does it). */
const verifiedPerson = (locale = "en") => verifiedPersonAt(env.server.baseUrl, PASSWORD, { locale });

// Logins are limited (5 a minute per email, 20 per address): a change is checked through a token where it can be.
const login = (email: string, password: string) =>
  api<{ token: string }>(env.server.baseUrl, "POST", "/api/auth/login", { body: { email, password } });
/** Whether a token still signs in: a password change ends every earlier one, a deletion all of them. */
const signedIn = async (token: string) => (await api(env.server.baseUrl, "GET", "/api/users/me", { token })).status === 200;

const sized = (width: Width, lang = "en") => openAtWidth(env.browser, width, { locale: lang });
const screen = (page: Page, name: string) => checkScreen(page, `account-${name}`);

const text = (page: Page, selector: string) => page.locator(selector).innerText();

describe("the account page in five languages", () => {
  for (const { lang, cat, width } of LANGUAGES) {
    it(`${lang} at ${width} px: sees what is held, changes password and email, adds and removes a passkey, deletes the account`, async () => {
      const person = await verifiedPerson(lang);
      const { page, problems } = await sized(width, lang);
      await withAuthenticator(page);
      page.on("dialog", (dialog) => void dialog.accept());

      // The confirmation mail's page, in the browser's language, the brand's name too.
      await page.goto(await mailedLink(env.server.baseUrl, person.email));
      await page.locator("#account-status").waitFor({ state: "visible" });
      expect(await text(page, "#account-status")).toBe(cat["link.email_confirmed"].replace("{email}", person.email));
      expect(await text(page, ".brand")).toContain(cat["brand.name"]);
      await screen(page, `${lang}-${width}-email-confirmed`);

      await page.goto(`${env.server.baseUrl}/account?lang=${lang}`);
      await page.locator("#me-signin").waitFor({ state: "visible" });
      expect(await page.locator("html").getAttribute("lang")).toBe(lang);
      expect(await text(page, "#me-signin-title")).toBe(cat["me.signin.title"]);
      await screen(page, `${lang}-${width}-signin`);
      await page.locator("#me-login-email").fill(person.email);
      await page.locator("#me-login-password").fill(PASSWORD);
      await page.locator("#me-login-form button[type=submit]").click();

      // What the service holds.
      await page.locator("#me-held").waitFor({ state: "visible" });
      expect(await text(page, "#me-title")).toBe(cat["me.title"]);
      expect(await text(page, "#me-email")).toBe(cat["me.email.confirmed"].replace("{email}", person.email));
      expect(await page.locator("#me-email-resend").isVisible()).toBe(false);
      expect(await text(page, "#me-identity")).toContain(cat["me.identity.verified"].split("{date}")[0]!.trim());
      await expect.poll(() => text(page, "#me-tokens")).toBe(cat["me.tokens.none"]);
      await page.locator("#passkey-settings").waitFor({ state: "visible" });
      expect(await text(page, "#passkey-empty")).toBe(cat["passkey.empty"]);
      await screen(page, `${lang}-${width}-held`);

      // Change password: a wrong current one is told under its field and changes nothing.
      await page.locator("#me-password-currentPassword").fill("not-my-password");
      await page.locator("#me-password-newPassword").fill(NEW_PASSWORD);
      await page.locator("#me-password-form button[type=submit]").click();
      await expect.poll(() => text(page, "#me-password-currentPassword-error")).toBe(cat["me.password.wrong"]);
      expect(await focusedId(page)).toBe("me-password-currentPassword");
      expect(await signedIn(person.token)).toBe(true);
      await screen(page, `${lang}-${width}-password-wrong`);
      await page.locator("#me-password-currentPassword").fill(PASSWORD);
      await page.locator("#me-password-newPassword").fill(NEW_PASSWORD);
      await page.locator("#me-password-form button[type=submit]").click();
      await expect.poll(() => text(page, "#me-password-form .notice")).toBe(cat["me.password.done"]);
      expect(await signedIn(person.token)).toBe(false);
      const relogin = await login(person.email, NEW_PASSWORD);
      expect(relogin.status).toBe(200);
      const token = relogin.body.data.token;

      // Change email: a wrong password changes nothing; the right one mails the new address.
      const newEmail = uniqueEmail("me-new");
      await page.locator("#me-email-newEmail").fill(newEmail);
      await page.locator("#me-email-password").fill(PASSWORD);
      await page.locator("#me-email-form button[type=submit]").click();
      await expect.poll(() => text(page, "#me-email-password-error")).toBe(cat["me.password.wrong"]);
      expect(
        (await api<{ messages: unknown[] }>(env.server.baseUrl, "GET", `/api/dev/outbox?to=${encodeURIComponent(newEmail)}`)).body.data
          .messages,
      ).toHaveLength(0);
      await page.locator("#me-email-password").fill(NEW_PASSWORD);
      await page.locator("#me-email-form button[type=submit]").click();
      await expect.poll(() => text(page, "#me-email-form .notice")).toBe(cat["me.email.sent"].replace("{email}", newEmail));
      expect(
        (await api<{ messages: unknown[] }>(env.server.baseUrl, "GET", `/api/dev/outbox?to=${encodeURIComponent(newEmail)}`)).body.data
          .messages,
      ).toHaveLength(1);

      // A passkey: the first needs the password (a wrong one adds none), then it is removed again.
      await page.locator("#passkey-add-password").fill(PASSWORD);
      await page.locator("#passkey-add").click();
      await expect.poll(() => text(page, "#passkey-settings-notice")).toBe(cat["passkey.password.wrong"]);
      expect(await page.locator("#passkey-list li").count()).toBe(0);
      await page.locator("#passkey-add-password").fill(NEW_PASSWORD);
      await page.locator("#passkey-add").click();
      await expect.poll(() => text(page, "#passkey-settings-notice")).toBe(cat["passkey.created"]);
      expect(await page.locator("#passkey-list li").count()).toBe(1);
      await screen(page, `${lang}-${width}-passkey`);
      await page.locator("#passkey-list li button").nth(1).click();
      await expect.poll(() => page.locator("#passkey-list li").count()).toBe(0);
      const listed = await api<{ passkeys: unknown[] }>(env.server.baseUrl, "GET", "/api/users/me/passkeys", { token });
      expect(listed.body.data.passkeys).toHaveLength(0);

      // Delete: a wrong password deletes nothing; the right one deletes, and the sign-in is gone.
      await page.locator("#me-delete-password").fill(PASSWORD);
      await page.locator("#me-delete-form button[type=submit]").click();
      await expect.poll(() => text(page, "#me-delete-password-error")).toBe(cat["me.password.wrong"]);
      expect(await signedIn(token)).toBe(true);
      await screen(page, `${lang}-${width}-delete-wrong`);
      await page.locator("#me-delete-password").fill(NEW_PASSWORD);
      await page.locator("#me-delete-form button[type=submit]").click();
      await page.locator("#me-deleted").waitFor({ state: "visible" });
      expect(await text(page, "#me-deleted-title")).toBe(cat["me.deleted.title"]);
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem("avs.verify.token"))).toBeNull();
      expect(await signedIn(token)).toBe(false);
      await screen(page, `${lang}-${width}-deleted`);

      // Only the four wrong passwords, each refused once (401 INVALID_CREDENTIALS).
      // (chromium notes each in the console too.)
      const responses = problems.filter((p) => !p.includes("responded with a status of 401"));
      expect(responses.map((p) => p.replace(/^HTTP (\d+) https?:\/\/[^/]+/, "$1 "))).toEqual([
        "401 /api/users/change-password",
        "401 /api/users/change-email",
        "401 /api/users/me/passkeys/registration-options",
        "401 /api/users/account",
      ]);
      await page.context().close();
    });
  }
});

describe("the development outbox as a page", () => {
  it("lists the mail to an address with its links clickable: the confirmation link confirms", async () => {
    const email = uniqueEmail("outbox");
    expect(
      (await api(env.server.baseUrl, "POST", "/api/auth/register", { body: { email, password: PASSWORD, userType: "PERSONAL" } })).status,
    ).toBe(201);
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(`${env.server.baseUrl}/dev/outbox?to=${encodeURIComponent(email)}`);
    expect(await text(page, "#outbox-title")).toBe(`Mail sent to ${email}`);
    const link = page.locator("article a").first();
    expect(await link.getAttribute("href")).toMatch(/\/account\/verify-email\?token=/);
    await screen(page, "dev-outbox-390");
    await link.click();
    await page.locator("#account-status").waitFor({ state: "visible" });
    expect(await text(page, "#account-status")).toBe(`Thank you: ${email} is confirmed. You can close this tab and return to the app.`);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("the ways to the account page", () => {
  it("/verify links a signed-in person to it, signed in, with the way back to the request", async () => {
    const person = await verifiedPerson();
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.locator("#login-email").fill(person.email);
    await page.locator("#login-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in and continue" }).click();
    await page.locator("#step-decide").waitFor({ state: "visible" });
    // The decision step tops up this browser's anonymous tokens in the background; leaving before that is
    // done aborts its requests, which the page's problem list would report.
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Your account" }).click();
    await page.locator("#me-held").waitFor({ state: "visible" });
    expect(await text(page, "#me-email")).toBe(`${person.email} (not confirmed yet)`);
    // Not confirmed: deleting would be refused, so the link can be sent again from here.
    await page.getByRole("button", { name: "Send the confirmation link again" }).click();
    await expect.poll(() => text(page, "#me-email-resent")).toBe(`We sent a confirmation link to ${person.email}.`);
    await page.getByRole("link", { name: "Back to the request" }).click();
    await page.locator("#step-decide").waitFor({ state: "visible" });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a business account is told the console is its place", async () => {
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(`${env.server.baseUrl}/account`);
    await page.locator("#me-login-email").fill(env.merchant.email);
    await page.locator("#me-login-password").fill("merchant-password-1");
    await page.locator("#me-login-form button[type=submit]").click();
    await page.locator("#me-business").waitFor({ state: "visible" });
    expect(await page.locator("#me-business a").getAttribute("href")).toBe("/console");
    await screen(page, "business-390");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a personal account signing in to /console is led to its account page, still signed in", async () => {
    const person = await verifiedPerson();
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(`${env.server.baseUrl}/console`);
    await page.locator("#signin-email").fill(person.email);
    await page.locator("#signin-password").fill(PASSWORD);
    await page.locator("#signin-form button[type=submit]").click();
    await page.locator("#console-personal").waitFor({ state: "visible" });
    await expectAccessible(page);
    await page.getByRole("link", { name: "Open your account page" }).click();
    await page.locator("#me-held").waitFor({ state: "visible" });
    expect(await text(page, "#me-email")).toContain(person.email);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
