// The merchant integration of docs/integrating.md in a real browser: the test-mode outcome chooser on /verify (a
// session opened with a test key is answered with the outcome the tester picks, and the merchant's poll
// shows it with livemode false), and the result screen's way back to the merchant's return_url.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, STRICT_CSP, watchedPage } from "./browser";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { signUpAndFillIdentity } from "./end-user";
import { api, merchantWithKey } from "./merchant";
import { startReturnSite, type ReturnSite } from "./return-site.mjs";

type Opened = { session_id: string; nonce: string; verification_url: string; livemode: boolean };
type Polled = { status: string; above_age_required: boolean; livemode: boolean; receipt: string | null; holder_binding: string | null };

let server: DevServer;
let browser: Browser;
let merchant: Awaited<ReturnType<typeof merchantWithKey>>;
let testKey: string;
let shop: ReturnSite;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e" });
  browser = await launchChromium();
  merchant = await merchantWithKey(server.baseUrl);
  const created = await api<{ apiKey: string }>(server.baseUrl, "POST", "/api/keys", {
    token: merchant.token,
    body: { name: "e2e test", mode: "test" },
  });
  expect(created.status).toBe(201);
  testKey = created.body.data.apiKey;
  expect(testKey).toMatch(/^svc_sk_test_/);
  shop = await startReturnSite();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await shop?.close();
});

async function open(apiKey: string, extra: Record<string, unknown> = {}): Promise<Opened> {
  const opened = await api<Opened>(server.baseUrl, "POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: 18, callback_url: "http://localhost:9/age-callback", ...extra },
  });
  expect(opened.status).toBe(201);
  return opened.body.data;
}

const poll = async (apiKey: string, sessionId: string) =>
  (await api<Polled>(server.baseUrl, "GET", `/api/age-verification/session/${sessionId}`, { apiKey })).body.data;

/** Opens a test session's link and picks an outcome on the test chooser; resolves on the result screen. */
async function chooseTestOutcome(page: Page, session: Opened, outcome: string, result: string) {
  // The page sends the nonce in the X-Session-Nonce header or the body, never in an API address (docs/api-contract.md §Answering).
  const leaks: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/") && request.url().includes(session.nonce)) leaks.push(request.url());
  });
  const response = await page.goto(session.verification_url);
  expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);
  await page.locator("#step-test").waitFor({ state: "visible" });
  await expect(page.locator("#step-test").textContent()).resolves.toMatch(/test request/i);
  await page.locator(`[data-test-outcome="${outcome}"]`).click();
  await page.locator(`#step-result[data-result="${result}"]`).waitFor({ state: "visible" });
  expect(leaks).toEqual([]);
}

describe("test mode on /verify", () => {
  // Each outcome on a fresh session: what the tester chooses is what the merchant's poll shows.
  const cases = [
    { outcome: "APPROVED", result: "approved", polled: { status: "APPROVED", above_age_required: true }, receipt: true },
    { outcome: "DENIED_UNDER_AGE", result: "underage", polled: { status: "DENIED", above_age_required: false }, receipt: true },
    { outcome: "DENIED_REFUSED", result: "declined", polled: { status: "DENIED", above_age_required: false }, receipt: true },
    { outcome: "EXPIRED", result: "expired", polled: { status: "EXPIRED", above_age_required: false }, receipt: false },
  ];
  for (const { outcome, result, polled, receipt } of cases) {
    it(`the test banner's "${outcome}" choice reaches the merchant's poll with livemode false`, async () => {
      const session = await open(testKey);
      expect(session.livemode).toBe(false);
      const { page, problems } = await watchedPage(browser);
      await chooseTestOutcome(page, session, outcome, result);
      await page.screenshot({ path: `${ARTIFACTS}/test-mode-${result}.png`, fullPage: true });

      const after = await poll(testKey, session.session_id);
      expect(after).toMatchObject({ ...polled, livemode: false, holder_binding: null });
      if (receipt) expect(after.receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      else expect(after.receipt).toBeNull();
      // No return_url was given: the result screen offers no way back.
      expect(await page.locator("#result-return").isVisible()).toBe(false);
      expect(problems).toEqual([]);
    });
  }

  it("a live session's link never shows the test chooser", async () => {
    const session = await open(merchant.apiKey);
    expect(session.livemode).toBe(true);
    const { page, problems } = await watchedPage(browser);
    await page.goto(session.verification_url);
    await page.locator("#step-account").waitFor({ state: "visible" });
    expect(await page.locator("#step-test").isVisible()).toBe(false);
    expect(problems).toEqual([]);
  });
});

describe("the way back to the merchant", () => {
  /** The result screen's return link: focusable, to return_url with session_id appended, and it leads there. */
  async function followReturn(page: Page, sessionId: string) {
    // The result screen names the merchant ("Back to <merchant>"): found by its stable id.
    const back = page.locator("#result-return");
    await back.waitFor({ state: "visible" });
    const expected = `${shop.origin}/back?order=A-1001&session_id=${sessionId}`;
    await expect(back.getAttribute("href")).resolves.toBe(expected);
    await back.focus();
    await expect(back.evaluate((element) => element === (globalThis as any).document.activeElement)).resolves.toBe(true);
    await Promise.all([page.waitForURL(expected), page.keyboard.press("Enter")]);
    await expect(page.locator("h1").textContent()).resolves.toBe("Back at the shop");
    expect(shop.visits).toContain(`/back?order=A-1001&session_id=${sessionId}`);
  }

  it("a test session answered on the page offers a button back to return_url with session_id", async () => {
    const session = await open(testKey, { return_url: `${shop.origin}/back?order=A-1001` });
    const { page, problems } = await watchedPage(browser);
    await chooseTestOutcome(page, session, "DENIED_REFUSED", "declined");
    await page.screenshot({ path: `${ARTIFACTS}/return-test.png`, fullPage: true });
    await followReturn(page, session.session_id);
    expect((await poll(testKey, session.session_id)).status).toBe("DENIED");
    expect(problems).toEqual([]);
  });

  it("a live approval through the sandbox identity check offers the same way back", async () => {
    const session = await open(merchant.apiKey, { return_url: `${shop.origin}/back?order=A-1001` });
    const { page, problems } = await watchedPage(browser);
    await page.goto(session.verification_url);
    await page.locator("#step-account").waitFor({ state: "visible" });
    await signUpAndFillIdentity(page);
    await page.getByRole("button", { name: "Verify my identity (sandbox)" }).click();
    await page.locator("#step-decide").waitFor({ state: "visible" });
    await page.locator("#approve").click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    await page.screenshot({ path: `${ARTIFACTS}/return-live.png`, fullPage: true });
    await followReturn(page, session.session_id);
    expect(await poll(merchant.apiKey, session.session_id)).toMatchObject({
      status: "APPROVED",
      livemode: true,
      holder_binding: "PASSWORD",
    });
    expect(problems).toEqual([]);
  });
});
