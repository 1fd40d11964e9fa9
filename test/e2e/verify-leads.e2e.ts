// The decision screen leads (non-double-blind sessions): for each of the five kinds of person (signed out;
// verified without a passkey; verified with one; not verified; under the age) the screen has exactly one
// filled button, the way that will succeed for this person on this device, and at 390×844 it lies above
// the fold; axe and the width at 320, 390 and 1280 px. A wallet that never answers leaves a way out; a
// wallet-only request in a browser without the Digital Credentials API offers its link to copy and names
// the browsers that can; the first screen does not ask for an account above a wallet that needs none.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS } from "./browser";
import { fitsViewport } from "./console-helpers";
import { api, birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { expectAccessible, openPage, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
const PASSWORD = "person-password-1";
const FOLD = 844;

/** A personal account, its identity verified through the sandbox with `dob` unless `verified` is false. */
async function person(options: { dob?: string; verified?: boolean } = {}) {
  const email = uniqueEmail("lead");
  const registered = await api<{ token: string }>(env.server.baseUrl, "POST", "/api/auth/register", {
    body: { email, password: PASSWORD, userType: "PERSONAL" },
  });
  const token = registered.body.data.token;
  if (options.verified !== false) {
    await api(env.server.baseUrl, "POST", "/api/kyc/create-applicant", {
      token,
      body: { firstName: "Alex", lastName: "Morgan", dob: options.dob ?? birthDateYearsAgo(30) },
    });
    expect((await api(env.server.baseUrl, "POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear" } })).status).toBe(200);
  }
  return email;
}

async function signIn(page: Page, email: string) {
  await page.locator("#tab-login").click();
  await page.locator("#login-email").fill(email);
  await page.locator("#login-password").fill(PASSWORD);
  await page.locator("#login-form button[type=submit]").click();
}

/** Every filled button a person can see (not outlined, not a link-styled one), with its bottom in page coordinates. */
const filledButtons = (page: Page) =>
  page.evaluate(() => {
    const window = globalThis as any;
    return [...window.document.querySelectorAll(".btn")]
      .filter((el: any) => !el.classList.contains("secondary") && !el.classList.contains("link") && el.getClientRects().length > 0)
      .map((el: any) => ({
        id: el.id || el.closest("form")?.id || "",
        bottom: Math.round(el.getBoundingClientRect().bottom + window.scrollY),
      }));
  });

/** One filled button, the expected one, above the fold at 390×844; then axe and the width at 390, 320 and 1280. */
async function leads(page: Page, expected: string, name: string) {
  const filled = await filledButtons(page);
  expect(
    filled.map((b) => b.id),
    name,
  ).toEqual([expected]);
  expect(filled[0]!.bottom, `${name}: the filled button's bottom`).toBeLessThanOrEqual(FOLD);
  await page.screenshot({ path: `${ARTIFACTS}/leads-${name}-390.png` });
  for (const size of [
    { width: 390, height: 844 },
    { width: 320, height: 640 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await expectAccessible(page);
    await fitsViewport(page, `${name}-${size.width}`);
    expect(
      (await filledButtons(page)).map((b) => b.id),
      `${name} at ${size.width}`,
    ).toEqual([expected]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

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

/** A wallet API that is there but never answers (nor fails): the browser's prompt left open for good. */
async function withSilentWallet(page: Page) {
  await page.addInitScript(() => {
    const window = globalThis as any;
    window.DigitalCredential = class DigitalCredential {};
    window.navigator.credentials.get = () => new Promise(() => {});
  });
}

describe("the decision screen leads, for each kind of person", () => {
  it("signed out, with a wallet: one filled button (the wallet's), and no 'sign in' above a wallet that needs no account", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await withSilentWallet(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#step-account").waitFor({ state: "visible" });
    expect(await page.locator("#wallet-offer").isVisible()).toBe(true);
    expect(await page.locator("#intro-how").textContent()).not.toMatch(/Sign in or create/);
    expect(await page.locator("#wallet-or").isVisible()).toBe(true);
    await leads(page, "wallet-use", "signed-out");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("verified without a passkey: 'Send my answer' is the filled one, the wallet and the passkey offer follow it outlined, and it approves", async () => {
    const email = await person();
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await withSilentWallet(page);
    await withAuthenticator(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await signIn(page, email);
    await page.locator("#step-decide").waitFor({ state: "visible" });
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    const [decide, wallet] = await Promise.all([page.locator("#step-decide").boundingBox(), page.locator("#step-wallet").boundingBox()]);
    expect(wallet!.y).toBeGreaterThan(decide!.y);
    expect(await page.locator("#wallet-or").isVisible()).toBe(false);
    await leads(page, "approve", "verified-no-passkey");
    await page.locator("#approve").click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("APPROVED");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("verified with a passkey: 'Send my answer' is the filled one and approves with the passkey", async () => {
    const email = await person();
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await withAuthenticator(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await signIn(page, email);
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    await page.locator("#passkey-offer-password").fill(PASSWORD);
    await page.locator("#passkey-create").click();
    await page.locator("#passkey-list li").waitFor({ state: "visible" });
    await page.reload();
    await page.locator("#step-decide").waitFor({ state: "visible" });
    await page.locator("#passkey-settings").waitFor({ state: "visible" });
    await leads(page, "approve", "verified-passkey");
    await page.locator("#approve").click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    const polled = await api<{ holder_binding: string }>(env.server.baseUrl, "GET", `/api/age-verification/session/${session.session_id}`, {
      apiKey: env.merchant.apiKey,
    });
    expect(polled.body.data.holder_binding).toBe("PASSKEY");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("not verified, with a wallet: the wallet's button is the filled one, above the identity check", async () => {
    const email = await person({ verified: false });
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await withSilentWallet(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    await signIn(page, email);
    await page.locator("#applicant-form").waitFor({ state: "visible" });
    await leads(page, "wallet-use", "not-verified");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("without a wallet: signed out, creating the account leads, above the fold; not verified, the identity check leads", async () => {
    const email = await person({ verified: false });
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await page.addInitScript(() => {
      delete (globalThis as any).DigitalCredential;
    });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.locator("#step-account").waitFor({ state: "visible" });
    expect(await page.locator("#intro-how").textContent()).toMatch(/^Sign in or create a free account to answer\./);
    await leads(page, "register-form", "signed-out-no-wallet");
    await signIn(page, email);
    await page.locator("#applicant-form").waitFor({ state: "visible" });
    // The identity form is long: its one filled button is its last line, below the fold on a phone.
    expect((await filledButtons(page)).map((b) => b.id)).toEqual(["applicant-form"]);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("under the age: 'Decline' is the filled one, and nothing else is offered", async () => {
    const email = await person({ dob: birthDateYearsAgo(15) });
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await page.goto(verifyLink(env.server.baseUrl, session));
    await signIn(page, email);
    await page.locator("#decide-underage").waitFor({ state: "visible" });
    await leads(page, "decline", "under-age");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("the wallet's way out", () => {
  it("a wallet that never answers: 'Stop waiting' ends the wait, says so, and the button works again", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey);
    const { page, problems } = await openPage(env.browser, "phone");
    await withSilentWallet(page);
    await page.goto(verifyLink(env.server.baseUrl, session));
    const use = page.locator("#wallet-use");
    await use.click();
    await page.locator("#wallet-waiting").waitFor({ state: "visible" });
    expect(await use.isVisible()).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/leads-wallet-waiting-390.png` });
    await page.getByRole("button", { name: "Stop waiting" }).click();
    await expect
      .poll(() => page.locator("#wallet-notice").textContent())
      .toBe("Your wallet did not answer. Try again, or use another way.");
    expect(await use.isVisible()).toBe(true);
    expect(await use.isEnabled()).toBe(true);
    expect(await use.textContent()).toBe("Use a digital ID from your wallet");
    expect(await page.locator("#wallet-waiting").isVisible()).toBe(false);
    await expectAccessible(page);
    expect((await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).status).toBe("PENDING");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a wallet-only request in a browser without the API: the link to copy, and the browsers that can", async () => {
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { accepted_assurance: ["DIGITAL_ID_VERIFIED"] });
    const { page, problems } = await openPage(env.browser, "phone", { permissions: ["clipboard-read", "clipboard-write"] });
    await page.addInitScript(() => {
      delete (globalThis as any).DigitalCredential;
    });
    const link = verifyLink(env.server.baseUrl, session);
    await page.goto(link);
    await page.locator("#wallet-elsewhere").waitFor({ state: "visible" });
    expect(await page.locator("#wallet-unsupported").textContent()).toMatch(/Chrome 141 or later .* Safari 26 or later/);
    expect(await page.locator("#wallet-link").inputValue()).toBe(link);
    await page.getByRole("button", { name: "Copy the link" }).click();
    await expect.poll(() => page.locator("#wallet-copied").textContent()).toBe("Link copied: paste it into one of these browsers.");
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(link);
    await leads(page, "wallet-copy", "wallet-only-unsupported");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
