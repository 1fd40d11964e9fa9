// The console's callback tools in a real browser (docs/callbacks.md): a key's test event, signing-secret
// rotation (new secret shown once) and allowed origins; a resolved session's callback attempts and
// Redeliver. Callbacks go to a local receiver, which verifies each with the reference library.
import type { Browser } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { ARTIFACTS, launchChromium, watchedPage } from "./browser";
import { startCallbackReceiver, type CallbackReceiver } from "./callback-receiver.mjs";
import { api, birthDateYearsAgo, merchantWithKey, uniqueEmail } from "./merchant";

/** How long a test event's answer may take in the page: at least a whole second, padded. */
const TEST_EVENT_MS = 10_000;

let server: DevServer;
let browser: Browser;
let receiver: CallbackReceiver;
let hookUrl: string;
let received: CallbackReceiver["received"];

beforeAll(async () => {
  receiver = await startCallbackReceiver();
  hookUrl = receiver.url;
  received = receiver.received;
  server = await startDevServer({ name: "e2e-console-callbacks" });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await receiver?.close();
});

const headersOf = (h: Record<string, string>) => ({
  "webhook-id": String(h["webhook-id"]),
  "webhook-timestamp": String(h["webhook-timestamp"]),
  "webhook-signature": String(h["webhook-signature"]),
});

/** A session of the merchant's key, answered by an adult verified with the sandbox. */
async function resolvedSession(baseUrl: string, apiKey: string) {
  const opened = await api<{ session_id: string; nonce: string }>(baseUrl, "POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: 18, callback_url: hookUrl },
  });
  expect(opened.status).toBe(201);
  const user = await api<{ token: string }>(baseUrl, "POST", "/api/auth/register", {
    body: { email: uniqueEmail("adult"), password: "end-user-password-1", userType: "PERSONAL", firstName: "Ada", lastName: "Lovelace" },
  });
  const token = user.body.data.token;
  await api(baseUrl, "POST", "/api/kyc/create-applicant", {
    token,
    body: { firstName: "Ada", lastName: "Lovelace", dob: birthDateYearsAgo(30) },
  });
  await api(baseUrl, "POST", "/api/kyc/sandbox/complete", { token, body: { result: "clear" } });
  const done = await api(baseUrl, "POST", `/api/age-verification/session/${opened.body.data.session_id}/complete`, {
    token,
    body: { nonce: opened.body.data.nonce, consent: true },
  });
  expect(done.status).toBe(200);
  return opened.body.data.session_id;
}

describe("console callback tools", () => {
  it("sends a test event, rotates the secret (shown once), edits allowed origins, and redelivers a session's callback", async () => {
    received.length = 0;
    const merchant = await merchantWithKey(server.baseUrl);
    const keys = await api<{ keys: { id: string }[] }>(server.baseUrl, "GET", "/api/keys", { token: merchant.token });
    const keyId = keys.body.data.keys[0]!.id;
    const { page, problems } = await watchedPage(browser);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.baseUrl}/console`);
    await page.locator("#signin-email").fill(merchant.email);
    await page.locator("#signin-password").fill("merchant-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("#section-keys").waitFor({ state: "visible" });

    // Test event: the receiver gets one signed age_verification.test; the console reports its answer.
    await page.getByRole("button", { name: "Callbacks of e2e" }).click();
    await page.locator("#key-callbacks").waitFor({ state: "visible" });
    await page.locator("#test-event-url").fill(hookUrl);
    await page.getByRole("button", { name: "Send test event" }).click();
    // The test event's answer is padded to a whole second (it must not tell the receiver's timing: issue
    // 30), longer than expect.poll's default second.
    await expect.poll(() => page.locator("#test-result").textContent(), { timeout: TEST_EVENT_MS }).toContain("Delivered: HTTP 204");
    // The status only: the answer is padded to whole seconds, so a duration would mislead.
    expect(await page.locator("#test-result").textContent()).not.toMatch(/\bms\b/);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body).type).toBe("age_verification.test");
    expect(new Webhook(merchant.signingSecret).verify(received[0]!.body, headersOf(received[0]!.headers))).toBeTruthy();

    // Rotate: the new secret is shown once; the key now signs with both.
    await page.locator("#rotate-graceHours").fill("2");
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.locator("#confirm-yes").click();
    await page.locator("#rotated").waitFor({ state: "visible" });
    const newSecret = await page.locator("#rotated-secret").inputValue();
    expect(newSecret).toMatch(/^whsec_/);
    await expect.poll(() => page.locator("#secret-state").textContent()).toContain("Two secrets sign callbacks until");
    await page.screenshot({ path: `${ARTIFACTS}/console-callbacks-1-rotated.png`, fullPage: true });
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => page.locator("#test-result").textContent(), { timeout: TEST_EVENT_MS }).toContain("2 signatures");
    const signed = received[1]!;
    // Signed with both: a receiver holding either secret verifies it, the new one's signature first.
    expect(new Webhook(newSecret).verify(signed.body, headersOf(signed.headers))).toBeTruthy();
    expect(new Webhook(merchant.signingSecret).verify(signed.body, headersOf(signed.headers))).toBeTruthy();
    expect(headersOf(signed.headers)["webhook-signature"]!.split(" ")).toHaveLength(2);

    // Allowed origins: a bad one is refused under the field, a good one saved and enforced.
    await page.locator("#origins").fill("https://example.com/path");
    await page.getByRole("button", { name: "Save origins" }).click();
    await expect.poll(() => page.locator("#origins-error").textContent()).toContain("no path");
    const origin = new URL(hookUrl).origin;
    await page.locator("#origins").fill(origin);
    await page.getByRole("button", { name: "Save origins" }).click();
    await expect.poll(() => page.locator("#origins-status").textContent()).toContain("Saved");
    const refused = await api(server.baseUrl, "POST", "/api/age-verification/session", {
      apiKey: merchant.apiKey,
      body: { age_required: 18, callback_url: "http://localhost:9/elsewhere" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe("CALLBACK_ORIGIN_NOT_ALLOWED");
    await page.getByRole("button", { name: "Close" }).first().click();

    // A resolved session: its attempt in the detail, then Redeliver adds a second with the same webhook-id.
    const sessionId = await resolvedSession(server.baseUrl, merchant.apiKey);
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(3);
    await page.getByRole("tab", { name: "Usage" }).click();
    await page.getByRole("button", { name: `Callbacks of ${sessionId}` }).click();
    await page.locator("#session-callbacks").waitFor({ state: "visible" });
    await expect.poll(() => page.locator("#attempts-table tbody tr").count()).toBe(1);
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(() => page.locator("#attempts-table tbody tr").count(), { timeout: 20_000 }).toBe(2);
    await page.screenshot({ path: `${ARTIFACTS}/console-callbacks-2-redelivered.png`, fullPage: true });
    expect(received).toHaveLength(4);
    expect(received[3]!.headers["webhook-id"]).toBe(received[2]!.headers["webhook-id"]);
    expect(received[3]!.body).toBe(received[2]!.body);
    expect(keyId).toMatch(/^key_/);
    // The only problems: the deliberately refused origin (a 422 the page reports in its form).
    expect(problems.filter((p) => !p.includes("422"))).toEqual([]);
  });
});
