// The expired screen, against a server whose sessions live 15 seconds (SESSION_TTL_SECONDS), so the
// test waits a bounded few seconds instead of half an hour. 15, not 5: a page must load and show its form
// while its session is still pending, and on a loaded machine a browser page can take more than 5 s.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTIFACTS, launchChromium, STRICT_CSP, watchedPage } from "./browser";
import { seriousViolations } from "./axe";
import { expectAccessible, openPage } from "./verify-setup";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { api, merchantWithKey, openSession, poll, uniqueEmail, verifyLink } from "./merchant";

const SESSION_LIFE_SECONDS = 15;
/** How long to wait for a session to expire: its whole life and a generous margin for the alarm. */
const UNTIL_EXPIRED = { timeout: (SESSION_LIFE_SECONDS + 20) * 1000, interval: 250 };

let server: DevServer;
let browser: Browser;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e", vars: { SESSION_TTL_SECONDS: String(SESSION_LIFE_SECONDS) } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("verification app, expired request", () => {
  it("a link opened after its session expired shows the expired screen, and the merchant's poll shows EXPIRED", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const session = await openSession(server.baseUrl, merchant.apiKey, 21);
    const { page, problems } = await watchedPage(browser);
    const response = await page.goto(verifyLink(server.baseUrl, session));
    expect(response?.headers()["content-security-policy"]).toBe(STRICT_CSP);

    await page.getByLabel("Email").first().fill(uniqueEmail("late"));
    await page.getByLabel("Password").first().fill("person-password-1");
    // The form is on screen while the session is still pending: the submit below is a late answer.
    expect((await poll(server.baseUrl, merchant.apiKey, session.session_id)).status).toBe("PENDING");
    // The session expires 15 s after it was opened: wait until the server says so (its expiry alarm, or
    // this poll past expires_at, expires it), rather than sleeping for a guessed time.
    await expect.poll(async () => (await poll(server.baseUrl, merchant.apiKey, session.session_id)).status, UNTIL_EXPIRED).toBe("EXPIRED");
    await page.getByRole("button", { name: "Create account and continue" }).click();

    await page.locator('#step-result[data-result="expired"]').waitFor({ state: "visible", timeout: 30_000 });
    await expect(page.locator("#result-title").textContent()).resolves.toBe("This request has expired");
    await page.screenshot({ path: `${ARTIFACTS}/verify-expired.png`, fullPage: true });

    expect((await poll(server.baseUrl, merchant.apiKey, session.session_id)).status).toBe("EXPIRED");
    expect(problems).toEqual([]);
  });

  it("when the countdown reaches zero the page asks the server before it shows the expired screen", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const person = await api<{ token: string }>(server.baseUrl, "POST", "/api/auth/register", {
      body: { email: uniqueEmail("waiting"), password: "person-password-1", userType: "PERSONAL" },
    });
    const { page, problems } = await watchedPage(browser);
    const requestReads: string[] = [];
    page.on("request", (request) => {
      // The page sends the nonce in the X-Session-Nonce header, never in the URL (docs/security-privacy.md).
      if (/\/request$/.test(request.url()) && request.headers()["x-session-nonce"] === session.nonce) requestReads.push(request.url());
    });
    await page.goto(`${server.baseUrl}/console`);
    await page.evaluate((token) => (globalThis as any).sessionStorage.setItem("avs.verify.token", token), person.body.data.token);
    const session = await openSession(server.baseUrl, merchant.apiKey, 21);
    await page.goto(verifyLink(server.baseUrl, session));

    // Signed in already, the request shows with its countdown (15 s), then the expired screen. The last
    // minute is told in words, once to a screen reader, and in colour (class "ending").
    await page.locator("#countdown").waitFor({ state: "visible" });
    await expect.poll(() => page.locator("#countdown").textContent(), UNTIL_EXPIRED).toMatch(/^Less than a minute left: 0:0\d$/);
    await expect(page.locator("#countdown").getAttribute("class")).resolves.toBe("countdown ending");
    await expect(page.locator("#countdown-alert").textContent()).resolves.toBe("Less than a minute left to answer.");
    await page.locator('#step-result[data-result="expired"]').waitFor({ state: "visible", timeout: 30_000 });
    await expect(page.title()).resolves.toBe("This request has expired");
    expect(await seriousViolations(page)).toEqual([]);
    expect(requestReads.length).toBeGreaterThanOrEqual(2);
    expect((await poll(server.baseUrl, merchant.apiKey, session.session_id)).status).toBe("EXPIRED");
    expect(problems).toEqual([]);
  });

  // The read at zero meets the session's expiry alarm; wrangler dev under load once held it 25 s, and
  // the page, waiting on a fetch without a timeout, stayed on the request. Here the read is never answered.
  it("a read at the countdown's zero that never answers still ends on the expired screen", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const person = await api<{ token: string }>(server.baseUrl, "POST", "/api/auth/register", {
      body: { email: uniqueEmail("held"), password: "person-password-1", userType: "PERSONAL" },
    });
    const { page, problems } = await watchedPage(browser);
    await page.goto(`${server.baseUrl}/console`);
    await page.evaluate((token) => (globalThis as any).sessionStorage.setItem("avs.verify.token", token), person.body.data.token);
    const session = await openSession(server.baseUrl, merchant.apiKey, 21);
    let reads = 0;
    let held = 0;
    await page.route(/\/request$/, (route) => {
      // The first read shows the request; every later one (the check at zero) is held unanswered.
      if (++reads === 1) return route.continue();
      held++;
    });
    await page.goto(verifyLink(server.baseUrl, session));

    await page.locator("#countdown").waitFor({ state: "visible" });
    await page.locator('#step-result[data-result="expired"]').waitFor({ state: "visible", timeout: 30_000 });
    expect(held).toBeGreaterThanOrEqual(1);
    expect((await poll(server.baseUrl, merchant.apiKey, session.session_id)).status).toBe("EXPIRED");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe.each(["phone", "desktop"] as const)("the first screen of an expired link on a %s", (viewport) => {
  it("says the link has expired at once, before any sign-in, with the way back", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const session = await openSession(server.baseUrl, merchant.apiKey, 18, { return_url: "https://shop.example/back" });
    await expect.poll(async () => (await poll(server.baseUrl, merchant.apiKey, session.session_id)).status, UNTIL_EXPIRED).toBe("EXPIRED");
    const { page, problems } = await openPage(browser, viewport);
    await page.goto(verifyLink(server.baseUrl, session));
    await page.locator('#step-result[data-result="expired"]').waitFor({ state: "visible" });
    expect(await page.locator("#step-account").isVisible()).toBe(false);
    await expect(page.locator("#result-title").textContent()).resolves.toBe("This request has expired");
    await expect(page.locator("#result-return").getAttribute("href")).resolves.toBe(
      `https://shop.example/back?session_id=${session.session_id}`,
    );
    await expectAccessible(page);
    await page.screenshot({ path: `${ARTIFACTS}/verify-expired-first-screen-${viewport}.png`, fullPage: true });
    expect(problems).toEqual([]);
  });
});

// docs/end-user-apps.md: the expired screen in each language fits a 320 px phone and passes axe; a test session's
// expired screen says "Test mode" in words. (The other screens: verify-fit.e2e.ts.)
describe("the expired screen at 320 px", () => {
  it("fits in every language and passes axe; a test session's says it was a test", async () => {
    const merchant = await merchantWithKey(server.baseUrl);
    const testKey = await api<{ apiKey: string }>(server.baseUrl, "POST", "/api/keys", {
      token: merchant.token,
      body: { name: "expired fit", mode: "test" },
    });
    const languages = ["en", "fr", "de", "es", "it"] as const;
    const sessions = await Promise.all(languages.map((locale) => openSession(server.baseUrl, merchant.apiKey, 18, { locale })));
    const test = await openSession(server.baseUrl, testKey.body.data.apiKey, 18);
    await expect
      .poll(async () => (await poll(server.baseUrl, testKey.body.data.apiKey, test.session_id)).status, UNTIL_EXPIRED)
      .toBe("EXPIRED");
    const context = await browser.newContext({ viewport: { width: 320, height: 700 } });
    const page = await context.newPage();
    const findings: string[] = [];
    for (const [index, session] of [...sessions, test].entries()) {
      const screen = languages[index] ?? "test";
      await page.goto(verifyLink(server.baseUrl, session));
      await page.locator('#step-result[data-result="expired"]').waitFor({ state: "visible" });
      const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);
      if (width > 320) findings.push(`${screen}: ${width} px wide`);
      for (const violation of await seriousViolations(page)) findings.push(`${screen}: ${violation}`);
      expect(await page.locator("#result-test").isVisible(), screen).toBe(screen === "test");
    }
    await page.screenshot({ path: `${ARTIFACTS}/expired-test-320.png`, fullPage: true });
    expect(findings).toEqual([]);
    await context.close();
  });
});
