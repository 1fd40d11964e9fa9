// The merchant console on a 390 px phone and on a laptop (docs/end-user-apps.md): every key action reachable and
// working without sideways scrolling on the phone, axe on every screen in both viewports, and "Sign out"
// for this browser apart from "Sign out everywhere".
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { consoleHarness, DESKTOP, openSignedIn, PHONE, withinPhoneWidth } from "./console-helpers";
import { api, merchantWithKey, openSession, uniqueEmail } from "./merchant";

const harness = consoleHarness();

/** axe finds no serious or critical violation on the screen as it is now; `screen` names it in a failure. */
async function passesAxe(page: Page, screen: string) {
  expect({ screen, violations: await seriousViolations(page) }).toEqual({ screen, violations: [] });
}

/** A session of the key that its end user declined (no account needed): it has a callback to show. */
async function declinedSession(baseUrl: string, apiKey: string) {
  const session = await openSession(baseUrl, apiKey, 18);
  const declined = await api(
    baseUrl,
    "POST",
    `/api/age-verification/session/${session.session_id}/decline?nonce=${encodeURIComponent(session.nonce)}`,
  );
  expect(declined.status).toBe(200);
  return session.session_id;
}

describe("console on a phone", () => {
  it("reaches and uses every key action within 390 px: create, copy both, stored, callbacks, rotate, revoke", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser); // 390 x 844
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    await expect(page.locator("h1#console-heading").count()).resolves.toBe(1);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // The top bar wraps rather than pushing "Sign out everywhere" off the screen.
    await withinPhoneWidth(page, "#sign-out");
    await withinPhoneWidth(page, "#sign-out-everywhere");
    await withinPhoneWidth(page, "#create-key-name");
    await withinPhoneWidth(page, "#create-key-form button[type=submit]");
    await page.getByRole("textbox", { name: "Key name" }).fill("phone key");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator("#new-key").waitFor({ state: "visible" });
    for (const name of ["Copy the API key", "Copy the signing secret"]) {
      await withinPhoneWidth(page, `button[aria-label="${name}"]`);
      await page.getByRole("button", { name }).click();
      await page.locator("#copy-status").waitFor({ state: "visible" });
    }
    await withinPhoneWidth(page, "#new-key-done");
    await page.getByRole("button", { name: "I have stored them" }).click();
    await page.screenshot({ path: `${ARTIFACTS}/console-phone-keys.png`, fullPage: true });

    // Each row's controls lie on screen: Callbacks (rotate, test event, origins) and Revoke.
    await withinPhoneWidth(page, 'button[aria-label="Callbacks of phone key"]');
    await withinPhoneWidth(page, 'button[aria-label="Revoke phone key"]');
    await page.getByRole("button", { name: "Callbacks of phone key" }).click();
    await page.locator("#key-callbacks").waitFor({ state: "visible" });
    for (const selector of [
      "#rotate-graceHours",
      "#rotate-form button[type=submit]",
      "#test-event-url",
      "#test-event-form button[type=submit]",
      "#origins",
      "#origins-form button[type=submit]",
      "#key-callbacks-close",
    ]) {
      await withinPhoneWidth(page, selector);
    }
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await withinPhoneWidth(page, "#confirm-yes");
    await page.locator("#confirm-yes").click();
    await page.locator("#rotated").waitFor({ state: "visible" });
    await withinPhoneWidth(page, "#rotated-secret");
    await page.getByRole("button", { name: "Close" }).first().click();

    await page.getByRole("button", { name: "Revoke phone key" }).click();
    await withinPhoneWidth(page, "#confirm-yes");
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(() => page.locator('#keys-table tr:has-text("phone key") .pill.revoked').count()).toBe(1);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(problems).toEqual([]);
  });

  it("'Sign out' signs out this browser only", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser);
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    // "Sign out" forgets this browser's sign-in only: the token still works elsewhere.
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.locator("#console-auth").waitFor({ state: "visible" });
    expect((await api(server.baseUrl, "GET", "/api/users/me", { token: merchant.token })).status).toBe(200);
    expect(problems).toEqual([]);
  });
});

describe("console screens before the keys", () => {
  it("the email prompt and the personal-account screen pass axe on a phone and a desktop", async () => {
    const { server, browser } = harness;
    const register = async (userType: string, extra: Record<string, string>) =>
      (
        await api<{ token: string }>(server.baseUrl, "POST", "/api/auth/register", {
          body: { email: uniqueEmail(userType.toLowerCase()), password: "merchant-password-1", userType, ...extra },
        })
      ).body.data.token;
    const unverified = await register("BUSINESS", { companyName: "Cellar & Co" });
    const personal = await register("PERSONAL", { firstName: "Ada", lastName: "Lovelace" });
    const { page, problems } = await watchedPage(browser);
    for (const [label, viewport] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      await openSignedIn(page, server.baseUrl, unverified);
      await page.locator("#console-unverified").waitFor({ state: "visible" });
      // The development outbox is a link to its page (the JSON beside it at /api/dev/outbox), not an address to copy (docs/end-user-apps.md).
      const outbox = page.getByRole("link", { name: /^\/dev\/outbox\?to=/ });
      const href = await outbox.getAttribute("href");
      expect(href).toMatch(/^\/dev\/outbox\?to=/);
      const mail = await api<{ messages: { subject: string }[] }>(server.baseUrl, "GET", `/api${href!}`);
      expect(mail.body.data.messages.length).toBeGreaterThan(0);
      await passesAxe(page, `confirm your email (${label})`);
      await openSignedIn(page, server.baseUrl, personal);
      await page.locator("#console-personal").waitFor({ state: "visible" });
      await passesAxe(page, `personal account (${label})`);
    }
    expect(problems).toEqual([]);
  });
});

describe.each([
  ["phone", PHONE],
  ["desktop", DESKTOP],
])("console screens pass axe on a %s", (label, viewport) => {
  it("signed out: sign in, create an account, forgot password", async () => {
    const { server, browser } = harness;
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await page.goto(`${server.baseUrl}/console`);
    await page.locator("#console-auth").waitFor({ state: "visible" });
    await passesAxe(page, "sign in");
    await page.getByRole("tab", { name: "Create a business account" }).click();
    await passesAxe(page, "create an account");
    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.getByText("Forgot your password?").click();
    await page.locator("#forgot-email").waitFor({ state: "visible" });
    await passesAxe(page, "forgot password");
    expect(problems).toEqual([]);
  });

  it("signed in: keys with the secret panel, callbacks, revoke confirmation, usage, filters, session detail, account", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    await openSession(server.baseUrl, merchant.apiKey, 18);
    const declined = await declinedSession(server.baseUrl, merchant.apiKey);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(viewport);
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    await passesAxe(page, "keys");

    await page.locator("#create-key-name").fill("axe key");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator("#new-key").waitFor({ state: "visible" });
    await passesAxe(page, "keys with the new key's secrets");
    await page.getByRole("button", { name: "I have stored them" }).click();

    await page.getByRole("button", { name: "Callbacks of e2e" }).click();
    await page.locator("#key-callbacks").waitFor({ state: "visible" });
    await passesAxe(page, "callbacks of a key");
    await page.getByRole("button", { name: "Close" }).first().click();

    await page.getByRole("button", { name: "Revoke axe key" }).click();
    await page.locator("#confirm-dialog").waitFor({ state: "visible" });
    await passesAxe(page, "revoke confirmation");
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("tab", { name: "Usage" }).click();
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    await passesAxe(page, "usage");
    await page.locator("#log-status").selectOption("EXPIRED");
    await page.locator("#log-no-match").waitFor({ state: "visible" });
    await passesAxe(page, "session log with filters matching nothing");
    await page.locator("#log-status").selectOption("DENIED");
    await page.getByRole("button", { name: `Callbacks of ${declined}` }).click();
    await page.locator("#session-callbacks").waitFor({ state: "visible" });
    await passesAxe(page, "session detail");
    await page.screenshot({ path: `${ARTIFACTS}/console-axe-${label}-session-detail.png`, fullPage: true });

    await page.getByRole("tab", { name: "Account" }).click();
    await page.locator("#section-account").waitFor({ state: "visible" });
    await passesAxe(page, "account");
    await page.locator("#password-currentPassword").fill("not-my-password");
    await page.locator("#password-newPassword").fill("another-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.locator("#password-currentPassword-error").waitFor({ state: "visible" });
    await passesAxe(page, "change password with its error");
    // The only problem: the deliberately wrong password (401 and chromium's note of it).
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
  });
});
