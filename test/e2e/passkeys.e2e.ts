// Passkeys in a real browser: Chromium's virtual authenticator (DevTools WebAuthn domain, through
// playwright-core's CDP session) creates a passkey after the sandbox identity check and approves with
// it (holder_binding PASSKEY); a context without the passkey cannot approve for that account; an
// account without one approves by password (PASSWORD); a require_passkey session refuses the
// password path, explains it and offers a passkey instead of a "Send my answer" that would fail.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { fillDateOfBirth } from "./end-user";
import { api, birthDateYearsAgo, merchantWithKey, uniqueEmail, verifyLink } from "./merchant";

let server: DevServer;
let browser: Browser;
let merchant: Awaited<ReturnType<typeof merchantWithKey>>;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e-passkeys" });
  browser = await launchChromium();
  merchant = await merchantWithKey(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(body: Record<string, unknown> = {}) {
  const opened = await api<{ session_id: string; nonce: string }>(server.baseUrl, "POST", "/api/age-verification/session", {
    apiKey: merchant.apiKey,
    body: { age_required: 18, callback_url: "http://localhost:9/age-callback", ...body },
  });
  expect(opened.status).toBe(201);
  return opened.body.data;
}

const polled = async (sessionId: string) =>
  (
    await api<{ status: string; holder_binding: string | null }>(server.baseUrl, "GET", `/api/age-verification/session/${sessionId}`, {
      apiKey: merchant.apiKey,
    })
  ).body.data;

/** A platform authenticator with user verification, as a phone's biometrics would be. */
async function withAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function registerAndVerify(page: Page, email: string) {
  await page.getByLabel("Email").first().fill(email);
  await page.getByLabel("Password").first().fill("person-password-1");
  await page.getByRole("button", { name: "Create account and continue" }).click();
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Morgan");
  await fillDateOfBirth(page, birthDateYearsAgo(30));
  await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
  await page.locator("#step-decide").waitFor({ state: "visible" });
}

async function signIn(page: Page, email: string) {
  await page.getByRole("tab", { name: "Sign in" }).click();
  await page.locator("#login-email").fill(email);
  await page.locator("#login-password").fill("person-password-1");
  await page.getByRole("button", { name: "Sign in and continue" }).click();
  await page.locator("#step-decide").waitFor({ state: "visible" });
}

describe("passkeys on /verify", () => {
  it("enrols a passkey after the identity check and approves with it; another device cannot approve by password", async () => {
    const email = uniqueEmail("passkey");
    const first = await open();
    const { page, problems } = await watchedPage(browser);
    const { cdp, authenticatorId } = await withAuthenticator(page);
    await page.goto(verifyLink(server.baseUrl, first));
    await registerAndVerify(page, email);

    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/passkey-1-offer.png`, fullPage: true });
    // The first passkey needs the account's password (docs/passkeys.md): without it the page says so and adds nothing.
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.locator("#passkey-offer-notice").waitFor({ state: "visible" });
    await expect(page.locator("#passkey-offer-notice").textContent()).resolves.toBe("Enter your password to add your first passkey.");
    await page.locator("#passkey-offer-password").fill("not the password");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await expect.poll(() => page.locator("#passkey-offer-notice").textContent()).toBe("That is not your account’s password.");
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
    await page.locator("#passkey-offer-password").fill("person-password-1");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.locator("#passkey-settings").waitFor({ state: "visible" });
    await expect.poll(() => page.locator("#passkey-list li").count()).toBe(1);
    await page.locator("#passkey-settings summary").click();
    expect(await seriousViolations(page)).toEqual([]);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);

    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/passkey-2-approved.png`, fullPage: true });
    expect(await polled(first.session_id)).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(0);
    // Chromium advises offering RS256 too; the service accepts ES256 only (docs/passkeys.md), which every
    // platform authenticator supports.
    // The one refusal this test asked for: the wrong password above (401 on registration-options).
    const expected = (p: string) =>
      p.includes("pubKeyCredParams is missing at least one of the default algorithm") ||
      p.includes("401: POST") ||
      p.includes("status of 401");
    expect(problems.filter((p) => !expected(p))).toEqual([]);
    expect(problems.filter((p) => p.includes("401: POST"))).toEqual([
      expect.stringContaining("/api/users/me/passkeys/registration-options"),
    ]);

    // A second browser without the passkey (one without WebAuthn), signed in with the password: the
    // approval is refused by the server and the page says why.
    const second = await open();
    const other = await watchedPage(browser);
    await other.page.addInitScript(() => {
      delete (globalThis as any).PublicKeyCredential;
    });
    await other.page.goto(verifyLink(server.baseUrl, second));
    await signIn(other.page, email);
    const refusal = other.page.waitForResponse((response) => /\/complete$/.test(response.url()) && response.request().method() === "POST");
    await other.page.getByRole("button", { name: "Send my answer" }).click();
    // Refused by the server, not only by the page: 403 PASSKEY_REQUIRED, and the page says so.
    const refused = await refusal;
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe("PASSKEY_REQUIRED");
    await other.page.locator("#decide-notice").waitFor({ state: "visible" });
    await expect(other.page.locator("#decide-notice").textContent()).resolves.toContain("This approval must be confirmed with a passkey.");
    await other.page.screenshot({ path: `${ARTIFACTS}/passkey-3-other-device.png`, fullPage: true });
    expect(await polled(second.session_id)).toMatchObject({ status: "PENDING", holder_binding: null });
    // Declining needs no passkey.
    await other.page.getByRole("button", { name: "Decline" }).click();
    await other.page.locator('#step-result[data-result="declined"]').waitFor({ state: "visible" });
    expect(await polled(second.session_id)).toMatchObject({ status: "DENIED", holder_binding: null });
  });

  it("an account without a passkey (a browser without one) approves with its password: holder_binding PASSWORD", async () => {
    const session = await open();
    const { page, problems } = await watchedPage(browser);
    await page.goto(verifyLink(server.baseUrl, session));
    await registerAndVerify(page, uniqueEmail("password"));
    await page.getByRole("button", { name: "Not now" }).click();
    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await polled(session.session_id)).toMatchObject({ status: "APPROVED", holder_binding: "PASSWORD" });
    expect(problems).toEqual([]);
  });

  it("a require_passkey session refuses the password path and says what to do; a new passkey then approves", async () => {
    const session = await open({ require_passkey: true });
    const { page } = await watchedPage(browser);
    await page.goto(verifyLink(server.baseUrl, session));
    await registerAndVerify(page, uniqueEmail("required"));
    await page.locator("#passkey-required").waitFor({ state: "visible" });
    await expect(page.locator("#passkey-required").textContent()).resolves.toContain("accepts only an approval confirmed with a passkey");
    expect(await seriousViolations(page)).toEqual([]);
    // No "Send my answer" that could only fail (docs/end-user-apps.md): the passkey offer is the way forward.
    expect(await page.locator("#approve").isVisible()).toBe(false);
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/passkey-4-required.png`, fullPage: true });
    // The password path is refused by the server all the same.
    expect(await polled(session.session_id)).toMatchObject({ status: "PENDING" });
    const forced = await api(server.baseUrl, "POST", `/api/age-verification/session/${session.session_id}/complete`, {
      token: await page.evaluate(() => (globalThis as any).sessionStorage.getItem("avs.verify.token") as string),
      body: { nonce: session.nonce, consent: true },
    });
    expect(forced.status).toBe(403);
    expect(forced.body.error).toBe("PASSKEY_REQUIRED");

    await withAuthenticator(page);
    // The first passkey needs the account's password (docs/passkeys.md).
    await page.locator("#passkey-offer-password").fill("person-password-1");
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.locator("#passkey-required").waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Send my answer" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(await polled(session.session_id)).toMatchObject({ status: "APPROVED", holder_binding: "PASSKEY" });
  });
});
