// Double-blind approvals on /verify in a real browser, every request recorded (docs/double-blind.md):
// an account without a passkey and one with a passkey (Chromium's virtual authenticator), each with a
// stock of anonymous age tokens and with none. The test fails when a request that names the session (its
// id or nonce, in the URL, a header, Referer included, or the body) carries an Authorization header or
// anything of the account, when a request that carries the account names the session, or when a token is
// fetched inside the flow before the person chose it, or answered without the random wait after it.
// The wait is shortened through the page's documented test hook (window.AVS_TEST_DOUBLE_BLIND_WAIT_MS).
// A double-blind session that also requires a passkey can be answered by the wallet alone: the page
// offers nothing else, fetches no token and sends none, even to a signed-in person holding a stock.
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, watchedPage } from "./browser";
import { fillDateOfBirth } from "./end-user";
import { birthDateYearsAgo, openSession, poll, uniqueEmail, verifyLink } from "./merchant";
import { withWallet } from "./page-wallet";
import { expectAccessible, useVerifyEnv } from "./verify-setup";

const env = useVerifyEnv();
const WAIT_MS: [number, number] = [1500, 2500];
const PASSWORD = "person-password-1";

type Recorded = { at: number; method: string; url: string; headers: Record<string, string>; body: string };
type Session = { session_id: string; nonce: string };
type Account = { email: string; jwt: string; id: string };

/** Every request the page makes from now on, with all its headers (Referer included) and its body. */
function record(page: Page): Recorded[] {
  const seen: Recorded[] = [];
  page.on("request", (request) => {
    const at = Date.now();
    void request
      .allHeaders()
      .then((headers) => seen.push({ at, method: request.method(), url: request.url(), headers, body: request.postData() ?? "" }));
  });
  return seen;
}

/** The signed-in account as the page holds it: its JWT, the account id it names, the email. */
async function accountOf(page: Page, email: string): Promise<Account> {
  const jwt = ((await page.evaluate(() => (globalThis as any).sessionStorage.getItem("avs.verify.token"))) as string | null) ?? "";
  expect(jwt, "signed in").not.toBe("");
  const payload = jwt.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
  const id = (JSON.parse(atob(payload + "===".slice((payload.length + 3) % 4))) as { sub: string }).sub;
  return { email, jwt, id };
}

const textOf = (r: Recorded) => [r.url, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), r.body].join("\n");
const namesSession = (r: Recorded, s: Session) => textOf(r).includes(s.session_id) || textOf(r).includes(s.nonce);
const carriesAccount = (r: Recorded, a: Account) =>
  r.headers.authorization !== undefined || [a.jwt, a.id, a.email].some((v) => textOf(r).includes(v));
const issuances = (seen: Recorded[]) => seen.filter((r) => r.method === "POST" && new URL(r.url).pathname === "/api/age-tokens");
const completes = (seen: Recorded[], s: Session) =>
  seen.filter((r) => r.method === "POST" && r.url.endsWith(`/session/${s.session_id}/complete`));

/** No request joins the session and the account, in either direction. */
function expectNoJoinedRequest(seen: Recorded[], session: Session, account: Account) {
  for (const r of seen) {
    if (namesSession(r, session))
      expect(carriesAccount(r, account), `${r.method} ${r.url} names the session and carries the account`).toBe(false);
    if (carriesAccount(r, account))
      expect(namesSession(r, session), `${r.method} ${r.url} carries the account and names the session`).toBe(false);
  }
}

const stocked = (page: Page) => page.evaluate(() => (globalThis as any).AVS_AGE_TOKENS.count() as Promise<number>);

async function newPage(withPasskey = false) {
  const watched = await watchedPage(env.browser);
  await watched.page.addInitScript((range) => {
    (globalThis as any).AVS_TEST_DOUBLE_BLIND_WAIT_MS = range;
  }, WAIT_MS);
  if (withPasskey) {
    const cdp = await watched.page.context().newCDPSession(watched.page);
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
  return watched;
}

/** On an ordinary (not double-blind) request: creates the account and verifies it, as a person would anywhere in the app. */
async function createVerifiedAccount(page: Page, email: string) {
  const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18);
  await page.goto(verifyLink(env.server.baseUrl, session));
  await page.getByLabel("Email").first().fill(email);
  await page.getByLabel("Password").first().fill(PASSWORD);
  await page.getByRole("button", { name: "Create account and continue" }).click();
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Morgan");
  await fillDateOfBirth(page, birthDateYearsAgo(30));
  await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
  await page.locator("#step-decide").waitFor({ state: "visible" });
}

/** Opens a double-blind request in the page and waits for its step. */
async function openDoubleBlind(page: Page) {
  const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { double_blind: true });
  await page.goto(verifyLink(env.server.baseUrl, session));
  await page.locator("#step-double-blind").waitFor({ state: "visible" });
  return session;
}

/** The stock path: one tap, no issuance at all, a token and no account on the answer. */
async function answerFromStock(page: Page, email: string, shot: string) {
  const seen = record(page);
  const session = await openDoubleBlind(page);
  await expect(page.locator("#db-stock").isVisible()).resolves.toBe(true);
  await expect(page.locator("#db-none").isVisible()).resolves.toBe(false);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Send my answer with the token" }).click();
  await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
  await expect(page.locator("#result-text").textContent()).resolves.toContain("sent with an anonymous token this device got earlier");
  await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-${shot}.png`, fullPage: true });
  expect(issuances(seen)).toEqual([]);
  expect(completes(seen, session)).toHaveLength(1);
  expect(JSON.parse(completes(seen, session)[0]!.body)).toMatchObject({
    consent: true,
    age_token: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
  });
  expectNoJoinedRequest(seen, session, await accountOf(page, email));
  // The page read the preview and no request with the sign-in.
  expect(seen.filter((r) => r.url.includes(`/session/${session.session_id}/request`))).toEqual([]);
  expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({
    status: "APPROVED",
    assurance: "KYC_VERIFIED",
    holder_binding: "ANONYMOUS_TOKEN",
  });
}

/**
 * The empty-stock path: loading the link fetches nothing; the page says why a token fetched now is
 * linkable; the person chooses "get a token and answer after a random wait"; the answer leaves only
 * after the wait. Signs in on the way when `signIn` (the sign-in is not sent with the request).
 */
async function answerAfterWait(page: Page, email: string, options: { signIn: boolean; passkey: boolean }, shot: string) {
  const seen = record(page);
  const session = await openDoubleBlind(page);
  await expect(page.locator("#db-none").isVisible()).resolves.toBe(true);
  await expect(page.locator("#db-none").textContent()).resolves.toContain("could connect the two by their timing");
  await expect(page.locator("#db-wait-why").textContent()).resolves.toContain("random 1 to 4 minutes");
  await expectAccessible(page);
  await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-${shot}-choice.png`, fullPage: true });
  // Loading the link (and the time spent reading) fetched no token.
  await page.waitForTimeout(500);
  expect(issuances(seen)).toEqual([]);
  const chose = Date.now();
  await page.getByRole("button", { name: "Get a token and answer after a random wait" }).click();
  if (options.signIn) {
    await page.getByRole("tab", { name: "Sign in" }).click();
    await page.locator("#login-email").fill(email);
    await page.locator("#login-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in and continue" }).click();
  }
  await page.locator("#db-waiting").waitFor({ state: "visible" });
  await expect(page.locator("#db-countdown").textContent()).resolves.toMatch(/Your answer is sent in 0:0\d/);
  await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-${shot}-waiting.png`, fullPage: true });
  await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible", timeout: 30_000 });
  await expect(page.locator("#result-text").textContent()).resolves.toContain("fetched just now and held back a random wait");

  const issued = issuances(seen);
  expect(issued.length).toBeGreaterThan(0);
  for (const r of issued) expect(r.at, "issuance only after the person chose it").toBeGreaterThanOrEqual(chose);
  // The passkey account's issuance asked for the passkey (a confirmation on the request that was served).
  expect(issued.some((r) => r.body.includes('"confirmation"'))).toBe(options.passkey);
  const answer = completes(seen, session);
  expect(answer).toHaveLength(1);
  // The redemption asks for no passkey and waits at least the shortest wait after the last issuance.
  expect(answer[0]!.body).not.toContain("assertion");
  expect(answer[0]!.at - issued.at(-1)!.at).toBeGreaterThanOrEqual(WAIT_MS[0]);
  expectNoJoinedRequest(seen, session, await accountOf(page, email));
  expect(seen.filter((r) => r.url.includes(`/session/${session.session_id}/request`))).toEqual([]);
  expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({
    status: "APPROVED",
    holder_binding: "ANONYMOUS_TOKEN",
  });
}

describe("double-blind requests: no request joins the account and the session", () => {
  it("an account without a passkey: stocked after its identity check, it answers from the stock; on a fresh device it chooses a token and a wait", async () => {
    const email = uniqueEmail("blind");
    const { page, problems } = await newPage();
    await createVerifiedAccount(page, email);
    // Filled after the identity check, away from any double-blind request: a batch for the 18 asked.
    await expect.poll(() => stocked(page), { timeout: 30_000 }).toBe(5);
    await answerFromStock(page, email, "1-stock");
    expect(await stocked(page)).toBe(4);

    // Another device: no stock, not signed in.
    const fresh = await newPage();
    await answerAfterWait(fresh.page, email, { signIn: true, passkey: false }, "2-fresh");
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
    await closeAll([page.context(), fresh.page.context()]);
  });

  it("an account with a passkey: it gets tokens with the passkey, answers after the wait, then from the stock without the passkey", async () => {
    const email = uniqueEmail("blind-passkey");
    const { page, problems } = await newPage(true);
    await createVerifiedAccount(page, email);
    await page.locator("#passkey-offer").waitFor({ state: "visible" });
    await page.locator("#passkey-offer-password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create a passkey" }).click();
    await page.locator("#passkey-settings").waitFor({ state: "visible" });
    // Stocked when its identity check finished, before it had a passkey; this device's stock is emptied
    // here to take the empty-stock path. From now on no batch is fetched unasked (it would need the passkey).
    await expect.poll(() => stocked(page), { timeout: 30_000 }).toBe(5);
    await page.evaluate(() => (globalThis as any).AVS_AGE_TOKENS.clear());
    expect(await stocked(page)).toBe(0);

    await answerAfterWait(page, email, { signIn: false, passkey: true }, "3-passkey");
    expect(await stocked(page)).toBe(4);
    await answerFromStock(page, email, "4-passkey-stock");
    // The one refusal expected: issuance without the passkey first (403 PASSKEY_REQUIRED), then with it.
    // (Chromium logs the 403 to the console too, and advises RS256 at registration: docs/passkeys.md.)
    const expected = (p: string) =>
      p.includes("pubKeyCredParams is missing") || p.includes("status of 403") || (p.includes("HTTP 403") && p.includes("/api/age-tokens"));
    expect(problems.filter((p) => !expected(p))).toEqual([]);
    expect(problems.filter((p) => p.includes("HTTP 403"))).toEqual([expect.stringContaining("POST")]);
    await closeAll([page.context()]);
  });
});

describe("a double-blind request that requires a passkey: only the wallet can answer it", () => {
  it("a signed-in person with a stock is offered the wallet alone, told why; no token is fetched or sent, and the wallet approves", async () => {
    const email = uniqueEmail("blind-key");
    const { page, problems } = await newPage();
    await createVerifiedAccount(page, email);
    await expect.poll(() => stocked(page), { timeout: 30_000 }).toBe(5);
    const wallet = await withWallet(page, { 18: true });
    const seen = record(page);
    const session = await openSession(env.server.baseUrl, env.merchant.apiKey, 18, { double_blind: true, require_passkey: true });
    await page.goto(verifyLink(env.server.baseUrl, session));
    await page.getByRole("button", { name: "Use a digital ID from your wallet" }).waitFor({ state: "visible" });
    await page.waitForTimeout(500);
    // Nothing the session refuses is offered: no token step, no "Send my answer with the token", no sign-in.
    for (const id of ["#step-double-blind", "#db-send", "#step-account", "#step-decide"])
      expect(await page.locator(id).isVisible(), id).toBe(false);
    await expect(page.locator("#wallet-only-key").isVisible()).resolves.toBe(true);
    await expect(page.locator("#wallet-only-key").textContent()).resolves.toContain("only a digital ID from your wallet does both");
    await expect(page.getByRole("button", { name: "Use a digital ID from your wallet" }).isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-double-blind-5-passkey-required.png`, fullPage: true });
    expect(issuances(seen)).toEqual([]);

    await page.getByRole("button", { name: "Use a digital ID from your wallet" }).click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    expect(wallet.count).toBe(1);
    expect(issuances(seen)).toEqual([]);
    expect(completes(seen, session)).toEqual([]);
    expect(seen.some((r) => r.body.includes("age_token"))).toBe(false);
    expect(await stocked(page)).toBe(5);
    expectNoJoinedRequest(seen, session, await accountOf(page, email));
    expect(await poll(env.server.baseUrl, env.merchant.apiKey, session.session_id)).toMatchObject({
      status: "APPROVED",
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: "DEVICE_KEY",
    });
    expect(problems).toEqual([]);
    await closeAll([page.context()]);
  });
});

async function closeAll(contexts: BrowserContext[]) {
  for (const context of contexts) await context.close();
}
