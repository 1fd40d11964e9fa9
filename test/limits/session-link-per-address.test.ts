// The session link's routes that need no API key are limited per client address (docs/limits.md, docs/api-contract.md §Limits
// "Hardening"): 120 a minute, shared by preview, request, decline, passkey options and the page's test
// outcome, so a flood of guessed session ids is refused before any Durable Object is reached.
// The limiter counts in 60-second windows; on a slow machine a run of calls may straddle two of them, so
// the tests send until the first 429 and check where it came: after at least 120 allowed calls (one
// window's worth) and before 240 (two), never without one.
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

/** Sends `send(i)` in parallel batches until one is answered 429; how many were not, and the statuses seen. */
async function untilRefused(send: (i: number) => Promise<{ status: number }>): Promise<{ allowed: number; statuses: Set<number> }> {
  const statuses = new Set<number>();
  let allowed = 0;
  for (let sent = 0; sent <= 2 * PER_MINUTE; sent += 20) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => send(sent + i)));
    for (const { status } of answers) {
      if (status === 429) return { allowed, statuses };
      statuses.add(status);
      allowed++;
    }
  }
  return { allowed, statuses };
}

describe("session-link calls per client address", { timeout: 120_000 }, () => {
  it("answers a flood of guessed session ids 404 up to the limit, then 429 without reaching their objects", async () => {
    const ip = address();
    const { allowed, statuses } = await untilRefused(() => preview(newId("ses"), "x".repeat(43), ip));
    expect(statuses).toEqual(new Set([404]));
    expect(allowed).toBeGreaterThanOrEqual(PER_MINUTE);
    expect(allowed).toBeLessThan(2 * PER_MINUTE + 20);
    const guessed = newId("ses");
    const refused = await preview(guessed, "x".repeat(43), ip);
    expectError(refused, 429, "RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe("60");
    // The refused id's object was never asked: it holds nothing.
    expect(await runInDurableObject(sessionObject(guessed), async (_instance, state) => (await state.storage.list()).size)).toBe(0);
  });

  it("counts preview, decline and the page's test outcome together, and another address is not affected", async () => {
    const merchant = await seedMerchant("Link shop", "test");
    const opened = await openSession(merchant.apiKey);
    const ip = address();
    const decline = () =>
      call("POST", `/api/age-verification/session/${newId("ses")}/decline`, {
        headers: { "x-session-nonce": opened.nonce, "cf-connecting-ip": ip },
      });
    const { allowed, statuses } = await untilRefused((i) => (i % 2 === 0 ? preview(opened.session_id, opened.nonce, ip) : decline()));
    expect(statuses).toEqual(new Set([200, 404]));
    expect(allowed).toBeGreaterThanOrEqual(PER_MINUTE);
    const outcome = (from: string) =>
      call("POST", `/api/age-verification/session/${opened.session_id}/test-outcome`, {
        headers: { "cf-connecting-ip": from },
        body: { nonce: opened.nonce, outcome: "APPROVED" },
      });
    expectError(await outcome(ip), 429, "RATE_LIMITED");
    // Nothing was answered by the refused call; from another address the page goes on.
    const elsewhere = await outcome(address());
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.data.status).toBe("APPROVED");
  });

  it("does not count a merchant's test key answering its own test sessions (its account's opens limit does)", async () => {
    const merchant = await seedMerchant("Key shop", "test");
    const ip = address();
    expect((await untilRefused(() => preview(newId("ses"), "x".repeat(43), ip))).allowed).toBeLessThan(2 * PER_MINUTE + 20);
    const opened = await openSession(merchant.apiKey);
    const res = await call("POST", `/api/age-verification/session/${opened.session_id}/test-outcome`, {
      apiKey: merchant.apiKey,
      headers: { "cf-connecting-ip": ip },
      body: { outcome: "DENIED_UNDER_AGE" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
