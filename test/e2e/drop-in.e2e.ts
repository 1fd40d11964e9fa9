// The merchant's drop-in end to end (docs/drop-in.md): the sample shop (docs/examples/shop, run as a merchant
// runs it) serves a checkout page with <age-verification> under a strict CSP. On a desktop the page shows
// a QR code, decoded here from its rendered pixels with jsQR, that is the session's verification_url; a
// phone-sized context opens that link and approves on the test chooser; the desktop page shows the answer
// within one poll interval and the shop's server confirms it from the signed callback (or its poll), with
// a verified receipt. On a phone the page shows one button. axe on the drop-in. The server library's calls
// against this development server ride here too.
import jsQR from "jsqr";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, fetchJwks, verifyCallback, verifyReceipt } from "../../packages/age-verification-node/src/index";
import { seriousViolations } from "./axe";
import { ARTIFACTS, launchChromium } from "./browser";
import { startCallbackReceiver, type CallbackReceiver } from "./callback-receiver.mjs";
import { api, merchantWithKey } from "./merchant";
import { startShop, type ShopProcess } from "./shop-process.mjs";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";

/** The drop-in's poll interval (src/web/drop-in/age-verification-element.js, POLL_INTERVAL_MS). */
const POLL_INTERVAL_MS = 1500;

let server: DevServer;
let browser: Browser;
let shop: ShopProcess;

beforeAll(async () => {
  server = await startDevServer({ name: "e2e" });
  browser = await launchChromium();
  shop = await startShop(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await shop?.stop();
  await server?.stop();
});

/** A page that records console errors (a CSP violation among them), page errors and failed requests. */
async function shopPage(viewport: { width: number; height: number }, mobile: boolean) {
  const context = await browser.newContext({ viewport, isMobile: mobile, hasTouch: mobile });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  const response = await page.goto(`${shop.url}/`);
  expect(response?.headers()["content-security-policy"]).toContain(`script-src 'self' ${server.baseUrl}`);
  return { page, problems };
}

/** The QR code as it is drawn on the screen, decoded: a screenshot's pixels read back in a blank page. */
async function decodeQr(page: Page): Promise<string | null> {
  const png = (await page.locator("age-verification svg").screenshot()).toString("base64");
  const blank = await (await browser.newContext()).newPage();
  const pixels = (await blank.evaluate(async (data) => {
    // The test is type-checked without the DOM's types: the page's globals, untyped.
    const window = globalThis as any;
    const image = new window.Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = window.document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    return { width: image.width, height: image.height, data: Array.from(context.getImageData(0, 0, image.width, image.height).data) };
  }, png)) as { width: number; height: number; data: number[] };
  await blank.context().close();
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height)?.data ?? null;
}

/** Opens a link on a phone and picks APPROVED on the test chooser; resolves when /verify says so. */
async function approveOn(page: Page, link: string) {
  await page.goto(link);
  await page.locator("#step-test").waitFor({ state: "visible" });
  await page.locator('[data-test-outcome="APPROVED"]').click();
  await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
}

const elementStatus = (page: Page) =>
  page.locator("age-verification").evaluate((element) => (element as unknown as { status: string }).status);
// A function, not a string: the shop's CSP allows no eval (the type-check sees no DOM types).
const APPROVED_SHOWN = () => (globalThis as any).document.querySelector("age-verification").status === "APPROVED";

/** The shop server's own view of the order, once its callback has arrived (it polls the service before). */
async function confirmedByCallback(orderPath: string) {
  for (let attempt = 0; attempt < 60; attempt++) {
    const order = (await (await fetch(`${shop.url}${orderPath}/age`)).json()) as {
      status: string;
      confirmed_by: string;
      receipt_verified: boolean;
      livemode: boolean;
    };
    if (order.confirmed_by === "callback") return order;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no callback reached the shop:\n${shop.output()}`);
}

describe("the drop-in on the sample shop's checkout page", () => {
  it("desktop: the QR code decodes to the verification_url; a phone approves; the page knows within one poll, the shop's server confirms", async () => {
    const { page, problems } = await shopPage({ width: 1280, height: 800 }, false);
    const link = (await page.locator("age-verification").getAttribute("url")) ?? "";
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/verify\\?session_id=ses_[\\w-]+&nonce=`));
    await page.locator("age-verification svg").waitFor({ state: "visible" });
    await expect(page.getByText("Scan with your phone to verify your age").isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Or continue on this device" }).getAttribute("href")).resolves.toBe(link);
    await expect(page.getByRole("link", { name: "Verify my age" }).isVisible()).resolves.toBe(false);
    await page.screenshot({ path: `${ARTIFACTS}/drop-in-desktop.png` });
    expect(await decodeQr(page)).toBe(link);
    expect(await seriousViolations(page)).toEqual([]);

    const events: unknown[] = [];
    await page.exposeFunction("recordDropInEvent", (detail: unknown) => events.push(detail));
    await page.evaluate('document.addEventListener("age-verification-status", (event) => window.recordDropInEvent(event.detail))');

    // The live region must be the one a screen reader already knows: marked now, holding the answer later.
    await page.locator('age-verification [role="status"]').evaluate((region) => region.setAttribute("data-marked", ""));
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    await approveOn(phone, link);
    const answered = Date.now();
    await page.waitForFunction(APPROVED_SHOWN, undefined, { polling: 50 });
    const latency = Date.now() - answered;
    console.log(`drop-in: the desktop page knew the answer ${latency} ms after the phone's result screen`);
    // One poll interval, plus the read itself on a machine shared with other test runs.
    expect(latency).toBeLessThan(POLL_INTERVAL_MS + 1500);
    await expect(page.locator('age-verification [role="status"][data-marked]').textContent()).resolves.toBe(
      "Test session: approved (nothing was verified)",
    );
    expect(events).toEqual([{ status: "APPROVED", sessionId: new URL(link).searchParams.get("session_id") }]);

    // The page asked the shop's server, which confirmed with the service before saying so.
    await page.locator('#confirmation[data-status="APPROVED"]').waitFor();
    await expect(page.locator("#confirmation").textContent()).resolves.toMatch(/checked by the shop's server/);
    const order = await confirmedByCallback(new URL(page.url()).pathname);
    expect(order).toEqual({ status: "APPROVED", confirmed_by: "callback", livemode: false, receipt_verified: true });
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/drop-in-desktop-approved.png` });
    expect(problems).toEqual([]);
  });

  it("phone: one button, which leads to /verify and back to the shop, where the answer shows and the server confirms it", async () => {
    const { page, problems } = await shopPage({ width: 390, height: 844 }, true);
    const orderPath = new URL(page.url()).pathname;
    const button = page.getByRole("link", { name: "Verify my age" });
    await button.waitFor({ state: "visible" });
    await expect(page.locator("age-verification svg").isVisible()).resolves.toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/drop-in-phone.png` });

    await button.click();
    await page.locator("#step-test").waitFor({ state: "visible" });
    await page.locator('[data-test-outcome="APPROVED"]').click();
    await page.locator('#step-result[data-result="approved"]').waitFor({ state: "visible" });
    // The result screen's way back is the shop's return_url.
    await page.locator(`a[href^="${shop.url}${orderPath}"]`).click();
    await page.waitForURL(new RegExp(`^${shop.url}${orderPath}`));
    await page.waitForFunction(APPROVED_SHOWN);
    await page.locator('#confirmation[data-status="APPROVED"]').waitFor();
    expect((await confirmedByCallback(orderPath)).status).toBe("APPROVED");
    expect(problems).toEqual([]);
  });

  it("keyboard: Tab reaches the drop-in's link; it polls gently (one read per interval) and backs off when refused", async () => {
    const { page } = await shopPage({ width: 1280, height: 800 }, false);
    await page.locator("age-verification svg").waitFor();
    await page.keyboard.press("Tab");
    const focused = await page
      .locator("age-verification")
      .evaluate(
        (element) => (element.shadowRoot as unknown as { activeElement: { textContent: string } | null }).activeElement?.textContent,
      );
    expect(focused).toBe("Or continue on this device");

    // Count the reads over 4.5 s: at 1.5 s apart, 3 or 4 (the first at once); then refuse them all
    // (429, as the session-link limit would) and count again: the interval doubles each time.
    let reads = 0;
    let refuse = false;
    await page.route("**/preview", async (route) => {
      reads += 1;
      if (refuse)
        await route.fulfill({
          status: 429,
          contentType: "application/json",
          headers: { "access-control-allow-origin": "*" },
          body: '{"success":false,"error":"RATE_LIMITED"}',
        });
      else await route.continue();
    });
    await page.locator("age-verification").evaluate((element) => element.setAttribute("url", element.getAttribute("url") ?? ""));
    await page.waitForTimeout(4_500);
    expect(reads).toBeGreaterThanOrEqual(3);
    expect(reads).toBeLessThanOrEqual(4);
    refuse = true;
    reads = 0;
    await page.locator("age-verification").evaluate((element) => element.setAttribute("url", element.getAttribute("url") ?? ""));
    // Refused at 0 s, then after 3 s, then 6 s more: two reads in 7 s, where a steady 1.5 s would make five.
    await page.waitForTimeout(7_000);
    expect(reads).toBe(2);
    expect(await elementStatus(page)).toBe("PENDING");
  });

  it("a link whose nonce is wrong ends as INVALID, says so, and stops reading", async () => {
    const { page } = await shopPage({ width: 1280, height: 800 }, false);
    await page.locator("age-verification svg").waitFor();
    let reads = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/preview") && request.method() === "GET") reads += 1;
    });
    await page
      .locator("age-verification")
      .evaluate((element) => element.setAttribute("url", (element.getAttribute("url") ?? "").replace(/nonce=[^&]+/, "nonce=wrong")));
    await page.locator('age-verification [role="status"]', { hasText: "This age-check link is not valid." }).waitFor();
    expect(await elementStatus(page)).toBe("INVALID");
    await page.waitForTimeout(3_500);
    expect(reads).toBe(1);
    await expect(page.locator("age-verification svg").count()).resolves.toBe(0);
  });

  it("a link its merchant withdrew (the account deleted: 410 SESSION_WITHDRAWN) ends as INVALID too, and stops reading", async () => {
    const gone = await merchantWithKey(server.baseUrl, "Gone Grocers");
    const opened = await api<{ verification_url: string }>(server.baseUrl, "POST", "/api/age-verification/session", {
      apiKey: gone.apiKey,
      body: { age_required: 18, callback_url: "http://localhost:9/age-callback" },
    });
    expect(
      (await api(server.baseUrl, "DELETE", "/api/users/account", { token: gone.token, body: { password: "merchant-password-1" } })).status,
    ).toBe(200);
    const { page } = await shopPage({ width: 1280, height: 800 }, false);
    await page.locator("age-verification svg").waitFor();
    let reads = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/preview") && request.method() === "GET") reads += 1;
    });
    await page
      .locator("age-verification")
      .evaluate((element, link) => element.setAttribute("url", link), opened.body.data.verification_url);
    await page.locator('age-verification [role="status"]', { hasText: "This age-check link is not valid." }).waitFor();
    expect(await elementStatus(page)).toBe("INVALID");
    await page.waitForTimeout(3_500);
    expect(reads).toBe(1);
  });

  it("a language of the page is the drop-in's: French words under <html lang=fr>", async () => {
    const { page } = await shopPage({ width: 1280, height: 800 }, false);
    await page.locator("age-verification svg").waitFor();
    await page.evaluate('document.documentElement.setAttribute("lang", "fr")');
    // The element reads the language when it renders: a new url attribute renders it again.
    await page.locator("age-verification").evaluate((element) => element.setAttribute("url", element.getAttribute("url") ?? ""));
    await expect(page.getByText("Scannez avec votre téléphone pour vérifier votre âge").isVisible()).resolves.toBe(true);
    expect(await elementStatus(page)).toBe("PENDING");
  });
});

describe("age-verification-node against the development server", () => {
  let receiver: CallbackReceiver;
  let key: { id: string; apiKey: string; signingSecret: string; token: string };

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    const merchant = await merchantWithKey(server.baseUrl, "Library Shop");
    const created = await api<{ key: { id: string }; apiKey: string; signingSecret: string }>(server.baseUrl, "POST", "/api/keys", {
      token: merchant.token,
      body: { name: "library", mode: "test" },
    });
    expect(created.status).toBe(201);
    key = {
      id: created.body.data.key.id,
      apiKey: created.body.data.apiKey,
      signingSecret: created.body.data.signingSecret,
      token: merchant.token,
    };
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it("opens (a retry with the same Idempotency-Key is the same session), polls, verifies a rotated pair's callback and the receipt", async () => {
    const age = createClient({ baseUrl: server.baseUrl, apiKey: key.apiKey });
    const idempotencyKey = crypto.randomUUID();
    const request = { age_required: 18, callback_url: receiver.url, reference: "order-lib-1" };
    const first = await age.openSession(request, { idempotencyKey });
    const again = await age.openSession(request, { idempotencyKey });
    expect(first.replayed).toBe(false);
    expect(again).toEqual({ session: first.session, replayed: true });
    expect((await age.pollSession(first.session.session_id)).status).toBe("PENDING");

    // A rotation: during its grace each callback carries a signature for the new and the old secret.
    const rotated = await api<{ signingSecret: string }>(server.baseUrl, "POST", `/api/keys/${key.id}/rotate-signing-secret`, {
      token: key.token,
      body: {},
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.signingSecret;
    const answered = await api(server.baseUrl, "POST", `/api/age-verification/session/${first.session.session_id}/test-outcome`, {
      apiKey: key.apiKey,
      body: { outcome: "APPROVED" },
    });
    expect(answered.status).toBe(200);
    for (let i = 0; i < 80 && receiver.received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 250));
    const callback = receiver.received[0];
    if (!callback) throw new Error("no callback arrived");
    expect(callback.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const held of [[newSecret], [key.signingSecret], [newSecret, key.signingSecret]]) {
      const event = await verifyCallback(callback.body, callback.headers, held);
      expect(event).toMatchObject({
        type: "age_verification.session.approved",
        data: { session_id: first.session.session_id, status: "APPROVED", reference: "order-lib-1" },
      });
    }
    await expect(
      verifyCallback(callback.body.replace('"order-lib-1"', '"order-lib-2"'), callback.headers, [newSecret, key.signingSecret]),
    ).rejects.toThrow(/no signature matches/);

    const polled = await age.pollSession(first.session.session_id);
    expect(polled.status).toBe("APPROVED");
    const jwks = await fetchJwks(server.baseUrl);
    const claims = await verifyReceipt(polled.receipt ?? "", jwks, { issuer: server.baseUrl });
    expect(claims).toMatchObject({ session_id: first.session.session_id, outcome: "APPROVED", livemode: false, age_required: 18 });
    const [header, payload, signature] = (polled.receipt ?? "").split(".");
    const claimsJson = JSON.parse(atob((payload ?? "").replace(/-/g, "+").replace(/_/g, "/")));
    const changed = btoa(JSON.stringify({ ...claimsJson, outcome: "DENIED" }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    await expect(verifyReceipt(`${header}.${changed}.${signature}`, jwks)).rejects.toThrow(/signature does not match/);
  });

  it("an unknown session is the API's 404, with its code", async () => {
    const age = createClient({ baseUrl: server.baseUrl, apiKey: key.apiKey });
    await expect(age.pollSession("ses_000000000000000000000000")).rejects.toMatchObject({ status: 404, code: "NOT_FOUND" });
  });
});
