// The session link's routes that need no API key are limited per client address (issue 30, CONTRACT §13
// "Hardening"): 120 a minute, shared by preview, request, decline and the page's test outcome, so a flood
// of guessed session ids is refused before any Durable Object is reached.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { openSession, sessionObject } from "../helpers/sessions";

const PER_MINUTE = 120;
/** A client address of this test's own, so no other test's calls count on it. */
const address = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${crypto.randomUUID()}`;
const preview = (sessionId: string, nonce: string, ip: string) =>
  call("GET", `/api/age-verification/session/${sessionId}/preview`, { headers: { "x-session-nonce": nonce, "cf-connecting-ip": ip } });

describe("session-link calls per client address", { timeout: 60_000 }, () => {
  it("answers a flood of guessed session ids 404 up to the limit, then 429 without reaching their objects", async () => {
    const ip = address();
    for (let i = 0; i < PER_MINUTE; i++) expect((await preview(newId("ses"), "x".repeat(43), ip)).status).toBe(404);
    const guessed = newId("ses");
    const refused = await preview(guessed, "x".repeat(43), ip);
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("60");
    // The refused id's object was never asked: it holds nothing and was never constructed with a state.
    expect(await runInDurableObject(sessionObject(guessed), async (_instance, state) => (await state.storage.list()).size)).toBe(0);
  });

  it("counts preview, decline and the page's test outcome together, and another address is not affected", async () => {
    const merchant = await seedMerchant("Link shop", "test");
    const opened = await openSession(merchant.apiKey);
    const ip = address();
    for (let i = 0; i < PER_MINUTE / 2; i++) expect((await preview(opened.session_id, opened.nonce, ip)).status).toBe(200);
    for (let i = 0; i < PER_MINUTE / 2; i++) {
      const res = await call("POST", `/api/age-verification/session/${newId("ses")}/decline`, { headers: { "x-session-nonce": opened.nonce, "cf-connecting-ip": ip } });
      expect(res.status).toBe(404);
    }
    const outcome = (ip: string) =>
      call("POST", `/api/age-verification/session/${opened.session_id}/test-outcome`, { headers: { "cf-connecting-ip": ip }, body: { nonce: opened.nonce, outcome: "APPROVED" } });
    expectError(await outcome(ip), 429, "RATE_LIMITED");
    expectError(await preview(opened.session_id, opened.nonce, ip), 429, "RATE_LIMITED");
    // Nothing was answered by the refused call; from another address the page goes on.
    const elsewhere = await outcome(address());
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data.status).toBe("APPROVED");
  });

  it("does not count a merchant's test key answering its own test sessions (its account's opens limit does)", async () => {
    const merchant = await seedMerchant("Key shop", "test");
    const ip = address();
    for (let i = 0; i < PER_MINUTE; i++) expect((await preview(newId("ses"), "x".repeat(43), ip)).status).toBe(404);
    const opened = await openSession(merchant.apiKey);
    const res = await call("POST", `/api/age-verification/session/${opened.session_id}/test-outcome`, {
      apiKey: merchant.apiKey,
      headers: { "cf-connecting-ip": ip },
      body: { outcome: "DENIED_UNDER_AGE" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
