// The console as a merchant reads it (docs/end-user-apps.md): every error the API returns in plain words under
// its field (never the validator's "Too small: expected …"), a wrong current password as an inline
// error that keeps the merchant signed in, key names in the session log, an empty filter result that
// says so with a way back, an inverted range that clears the old figures, and the focus after the
// new key's panel closes and after a revoke.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, watchedPage } from "./browser";
import { consoleHarness, DESKTOP, openSignedIn, unexpected } from "./console-helpers";
import { api, merchantWithKey, openSession } from "./merchant";

const harness = consoleHarness();

/** Validator wording that a person should never read. */
const VALIDATOR_TEXT = /expected|>=|<=|too small|too big|invalid input|must not be after|nan/i;

/** Submits a form and returns the text of its visible errors once they appear. */
async function submitAndRead(page: Page, formId: string, button: string) {
  await page.locator(`#${formId}`).getByRole("button", { name: button }).click();
  await expect.poll(() => page.locator(`#${formId} .field-error:visible, #${formId} .notice.error:visible`).count()).toBeGreaterThan(0);
  return (await page.locator(`#${formId} .field-error:visible, #${formId} .notice.error:visible`).allTextContents()).join(" | ");
}

const errorOf = (page: Page, inputId: string) => page.locator(`#${inputId}-error`).textContent();

describe("console words", () => {
  it("shows each API error of each form in plain words under its field", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.baseUrl}/console`);

    // Signed out: sign in, create an account, forgot password.
    await page.locator("#signin-email").fill("not an address");
    let shown = await submitAndRead(page, "signin-form", "Sign in");
    expect(await errorOf(page, "signin-email")).toBe("Enter an email address, like name@company.com.");
    expect(await errorOf(page, "signin-password")).toBe("Enter your password.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.id)).resolves.toBe("signin-email");

    await page.getByRole("tab", { name: "Create a business account" }).click();
    await page.locator("#signup-email").fill("shop@example.test");
    await page.locator("#signup-password").fill("short");
    shown = await submitAndRead(page, "signup-form", "Create business account");
    expect(await errorOf(page, "signup-companyName")).toBe("Enter your company's name (at most 100 characters).");
    expect(await errorOf(page, "signup-password")).toBe("Use a password of 8 to 128 characters.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);

    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.getByText("Forgot your password?").click();
    await page.locator("#forgot-email").fill("@nowhere");
    shown = await submitAndRead(page, "forgot-form", "Email me a reset link");
    expect(await errorOf(page, "forgot-email")).toBe("Enter an email address, like name@company.com.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);

    // Signed in: a key without a name (the page's own check is off: novalidate), then the webhook tools.
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    await page.locator("#create-key-name").fill("   ");
    shown = await submitAndRead(page, "create-key-form", "Create key");
    expect(await errorOf(page, "create-key-name")).toBe("Enter a name for the key, up to 64 characters (for example: production server).");
    expect(shown).not.toMatch(VALIDATOR_TEXT);

    await page.getByRole("button", { name: "Callbacks of e2e" }).click();
    await page.locator("#rotate-graceHours").fill("100000");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.locator("#confirm-yes").click();
    await expect.poll(() => errorOf(page, "rotate-graceHours")).toMatch(/^Enter a whole number of hours from 0 to \d+\.$/);
    await page.locator("#test-event-url").fill("not a url");
    shown = await submitAndRead(page, "test-event-form", "Send test event");
    expect(await errorOf(page, "test-event-url")).toBe("Enter a public https:// address, like https://shop.example/age-callback.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);
    await page.locator("#origins").fill("https://example.com/path");
    shown = await submitAndRead(page, "origins-form", "Save origins");
    expect(await page.locator("#origins-error").textContent()).toBe(
      "Write one origin a line, like https://shop.example: https, a host and no path.",
    );
    await expect(page.locator("#origins").getAttribute("aria-invalid")).resolves.toBe("true");
    expect(shown).not.toMatch(VALIDATOR_TEXT);

    // Account: a profile name too long, an email change to a bad address.
    await page.getByRole("tab", { name: "Account" }).click();
    await page.locator("#profile-firstName").fill("x".repeat(101));
    shown = await submitAndRead(page, "profile-form", "Save profile");
    expect(await errorOf(page, "profile-firstName")).toBe("Use at most 100 characters.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);
    await page.locator("#email-newEmail").fill("nobody");
    await page.locator("#email-password").fill("merchant-password-1");
    shown = await submitAndRead(page, "email-form", "Send a confirmation link");
    expect(await errorOf(page, "email-newEmail")).toBe("Enter an email address, like name@company.com.");
    expect(shown).not.toMatch(VALIDATOR_TEXT);
    await page.screenshot({ path: `${ARTIFACTS}/console-words-account.png`, fullPage: true });

    expect(unexpected(problems, 422)).toEqual([]);
  });

  it("a wrong current password is an inline error: the field is focused and the merchant stays signed in", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(DESKTOP);
    await openSignedIn(page, server.baseUrl, merchant.token, "#account");
    await page.locator("#section-account").waitFor({ state: "visible" });

    await page.locator("#password-currentPassword").fill("not-my-password");
    await page.locator("#password-newPassword").fill("another-password-2");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => errorOf(page, "password-currentPassword")).toBe("That is not your current password.");
    await expect(page.locator("#password-currentPassword").getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.id)).resolves.toBe("password-currentPassword");
    // Still signed in: the section, the sign-out button and the stored token are all still there.
    expect(await page.locator("#section-account").isVisible()).toBe(true);
    expect(await page.locator("#console-auth").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Sign out", exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem("avs.console.token"))).toBe(merchant.token);
    expect((await api(server.baseUrl, "GET", "/api/users/me", { token: merchant.token })).status).toBe(200);

    // The same form with the right password changes it; the console keeps working with the new token.
    await page.locator("#password-currentPassword").fill("merchant-password-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect.poll(() => page.locator("#password-form .notice.ok").textContent()).toContain("Password changed");
    expect(await page.locator("#password-currentPassword-error").isVisible()).toBe(false);
    // The change signed every earlier token out; the console holds the new one and works with it.
    const fresh = await page.evaluate(() => (globalThis as any).sessionStorage.getItem("avs.console.token") as string | null);
    expect(fresh).not.toBeNull();
    expect(fresh).not.toBe(merchant.token);
    expect((await api(server.baseUrl, "GET", "/api/users/me", { token: merchant.token })).status).toBe(401);
    expect((await api(server.baseUrl, "GET", "/api/users/me", { token: fresh! })).status).toBe(200);
    const reload = page.waitForResponse((response) => response.url().endsWith("/api/keys") && response.request().method() === "GET");
    await page.getByRole("tab", { name: "API keys" }).click();
    expect((await reload).status()).toBe(200);
    expect(await page.locator("#console-auth").isVisible()).toBe(false);
    expect(unexpected(problems, 401)).toEqual([]);
  });

  it("the session log names keys, says when filters match nothing, and an inverted range clears the figures", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    await openSession(server.baseUrl, merchant.apiKey, 18);
    await openSession(server.baseUrl, merchant.apiKey, 21);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(DESKTOP);
    await openSignedIn(page, server.baseUrl, merchant.token, "#usage");
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    const keyCells = await page.locator("#log-table tbody tr td:nth-child(6)").allTextContents();
    expect(keyCells.map((cell) => cell.split(" ")[0])).toEqual(["e2e", "e2e"]);
    expect(keyCells[0]).toMatch(/^e2e svc_sk_live_[A-Za-z0-9_-]+…$/);

    // A status no session has: the log says the filters match nothing and offers to clear them.
    await page.locator("#log-status").selectOption("DENIED");
    await page.locator("#log-no-match").waitFor({ state: "visible" });
    await expect(page.locator("#log-no-match").textContent()).resolves.toContain("No sessions match these filters.");
    expect(await page.locator("#log-none").isVisible()).toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/console-words-no-match.png`, fullPage: true });
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => page.locator("#log-table tbody tr").count()).toBe(2);
    expect(await page.locator("#log-status").inputValue()).toBe("");
    expect(await page.locator("#log-empty").isVisible()).toBe(false);
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.id)).resolves.toBe("log-title");

    // From after to: refused under "From", and the totals, chart and log of the last range are gone.
    await expect(page.locator("#stat-total").textContent()).resolves.toBe("2");
    await page.locator("#range-from").fill("2026-03-10");
    await page.locator("#range-to").fill("2026-03-01");
    await page.getByRole("button", { name: "Show" }).click();
    await expect.poll(() => errorOf(page, "range-from")).toBe("Enter a start date on or before the end date, at most a year before it.");
    await expect(page.evaluate(() => (globalThis as any).document.activeElement.id)).resolves.toBe("range-from");
    for (const name of ["total", "approved", "denied", "expired", "pending"])
      expect(await page.locator(`#stat-${name}`).textContent()).toBe("–");
    expect(await page.locator("#chart").getAttribute("data-sessions")).toBeNull();
    expect(await page.locator("#log-table").isVisible()).toBe(false);
    expect(await page.locator("#by-key-table tbody tr").count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/console-words-inverted-range.png`, fullPage: true });
    // "Download CSV" refuses the same range under the same field, without asking the API.
    const exports: string[] = [];
    page.on("request", (request) => request.url().includes("/api/usage/export.csv") && exports.push(request.url()));
    await page.locator("#range-from").focus();
    await page.locator("#range-from-error").evaluate((el) => ((el as any).hidden = true));
    await page.getByRole("button", { name: "Download CSV" }).click();
    await page.locator("#range-from-error").waitFor({ state: "visible" });
    expect(exports).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("moves the focus to the new key's row after 'I have stored them', and to the next key after a revoke", async () => {
    const { server, browser } = harness;
    const merchant = await merchantWithKey(server.baseUrl);
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize(DESKTOP);
    await openSignedIn(page, server.baseUrl, merchant.token);
    await page.locator("#keys-table tbody tr").first().waitFor();
    const focused = () =>
      page.evaluate(() => {
        const active = (globalThis as any).document.activeElement;
        return active.getAttribute("aria-label") ?? active.id;
      });

    await page.locator("#create-key-name").fill("second");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.locator("#new-key").waitFor({ state: "visible" });
    await page.getByRole("button", { name: "I have stored them" }).click();
    await expect.poll(focused).toBe("Callbacks of second");
    expect(await page.locator("#new-key").isVisible()).toBe(false);

    // Newest first: "second", then "e2e". Revoking "second" focuses e2e's Revoke; revoking the last active key, the heading.
    await page.getByRole("button", { name: "Revoke second" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(focused).toBe("Revoke e2e");
    await page.getByRole("button", { name: "Revoke e2e" }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await expect.poll(focused).toBe("keys-title");
    expect(await page.locator('#keys-table button[aria-label^="Revoke "]').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
