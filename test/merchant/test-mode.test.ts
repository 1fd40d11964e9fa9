// docs/integrating.md, test mode: test keys open livemode:false sessions, answered through the test-outcome route
// (test key or nonce) without an identity check; a live session can never be answered that way.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { eventState } from "../helpers/callbacks";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { verifyReceipt } from "../helpers/receipts";
import { CALLBACK_URL, poll, storedStatus } from "../helpers/sessions";
import { dbOfAccount, dbOfSession } from "../helpers/shards";

afterEach(() => {
  vi.restoreAllMocks();
});

const open = async (apiKey: string, body: Record<string, unknown> = {}) => {
  const res = await call("POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: 18, callback_url: CALLBACK_URL, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; nonce: string; livemode: boolean };
};
const answer = (sessionId: string, body: Record<string, unknown>, apiKey?: string) =>
  call("POST", `/api/age-verification/session/${sessionId}/test-outcome`, { apiKey, body });

async function merchantWithBothKeys(options: { shard?: number } = {}) {
  const live = await seedMerchant("live", "live", options);
  const created = await call("POST", "/api/keys", { token: live.account.token, body: { name: "test", mode: "test" } });
  return { ...live, liveKey: live.apiKey, testKey: created.body.data.apiKey as string };
}

describe("test mode", () => {
  it.each([
    ["APPROVED", { status: "APPROVED", above_age_required: true, denial_reason: null }],
    ["DENIED_UNDER_AGE", { status: "DENIED", above_age_required: false, denial_reason: "UNDER_AGE" }],
    ["DENIED_REFUSED", { status: "DENIED", above_age_required: false, denial_reason: "DECLINED" }],
    ["EXPIRED", { status: "EXPIRED", above_age_required: false, receipt: null, receipt_id: null, denial_reason: null }],
  ])("a test key answers its test session %s, livemode false, holder_binding null, with a callback", async (outcome, expected) => {
    const merchant = await merchantWithBothKeys();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const opened = await open(merchant.testKey, { reference: "ci-run-1" });
    expect(opened.livemode).toBe(false);
    const res = await answer(opened.session_id, { outcome }, merchant.testKey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ ...expected, livemode: false, holder_binding: null, reference: "ci-run-1" });
    if (expected.status !== "EXPIRED") {
      // A test receipt verifies like a live one, and says it was simulated: livemode false.
      const { claims } = await verifyReceipt(res.body.data.receipt);
      expect(claims).toEqual({
        receipt_id: res.body.data.receipt_id,
        session_id: opened.session_id,
        merchant_id: merchant.account.id,
        age_required: 18,
        outcome: expected.status,
        assurance: "KYC_VERIFIED",
        holder_binding: null,
        denial_reason: expected.denial_reason,
        resolved_at: res.body.data.resolved_at,
        livemode: false,
        iat: Math.floor(Date.parse(res.body.data.resolved_at) / 1000),
        iss: env.APP_URL,
      });
      expect(res.body.data.receipt_id).toMatch(/^rcpt_/);
    }
    expect((await poll(merchant.testKey, opened.session_id)).body.data).toEqual(res.body.data);
    const [event] = await (await dbOfSession(opened.session_id))
      .select()
      .from(callbackEvents)
      .where(eq(callbackEvents.sessionId, opened.session_id));
    await vi.waitFor(async () => expect(await eventState(event!.id)).toBe("delivered"), { timeout: 10_000 });
    const body = JSON.parse(String(spy.mock.calls.find(([input]) => String(input) === CALLBACK_URL)![1]!.body));
    expect(body.data).toEqual(res.body.data);
    // Answered once: a second answer is refused and changes nothing.
    expectError(await answer(opened.session_id, { outcome: "APPROVED" }, merchant.testKey), 409, "SESSION_NOT_PENDING");
    expect((await poll(merchant.testKey, opened.session_id)).body.data).toEqual(res.body.data);
  });

  it("the page answers a test session with its nonce and no account; a wrong nonce is 404", async () => {
    const merchant = await merchantWithBothKeys();
    const opened = await open(merchant.testKey);
    expectError(await answer(opened.session_id, { outcome: "APPROVED", nonce: "wrong" }), 404, "NOT_FOUND");
    expectError(await answer(opened.session_id, { outcome: "APPROVED" }), 404, "NOT_FOUND");
    const res = await answer(opened.session_id, { outcome: "APPROVED", nonce: opened.nonce });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", livemode: false });
  });

  it("a live session can never be answered through the test path: not with the live key, a test key of the same account, nor the nonce", async () => {
    const merchant = await merchantWithBothKeys();
    const opened = await open(merchant.liveKey);
    expect(opened.livemode).toBe(true);
    for (const outcome of ["APPROVED", "DENIED_UNDER_AGE", "DENIED_REFUSED", "EXPIRED"]) {
      expectError(await answer(opened.session_id, { outcome }, merchant.liveKey), 404, "NOT_FOUND");
      expectError(await answer(opened.session_id, { outcome }, merchant.testKey), 404, "NOT_FOUND");
      expectError(await answer(opened.session_id, { outcome, nonce: opened.nonce }), 404, "NOT_FOUND");
    }
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
    expect((await poll(merchant.liveKey, opened.session_id)).body.data).toMatchObject({ status: "PENDING", livemode: true });
  });

  it("another account's test key cannot answer a test session; a bad key is 401; a bad outcome is 422", async () => {
    const merchant = await merchantWithBothKeys();
    // On the merchant's shard, so that a read which forgot the account would meet the merchant's rows.
    const other = await merchantWithBothKeys({ shard: merchant.shard });
    const opened = await open(merchant.testKey);
    expectError(await answer(opened.session_id, { outcome: "APPROVED" }, other.testKey), 404, "NOT_FOUND");
    expectError(await answer(opened.session_id, { outcome: "APPROVED" }, `svc_sk_test_${"A".repeat(43)}`), 401, "UNAUTHORIZED");
    expectError(await answer(opened.session_id, { outcome: "MAYBE" }, merchant.testKey), 422, "VALIDATION_FAILED");
    expect(await storedStatus(opened.session_id)).toBe("PENDING");
  });

  it("a test key can never produce livemode true, whatever the open request holds", async () => {
    const merchant = await merchantWithBothKeys();
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            age_required: fc.integer({ min: 1, max: 150 }),
            reference: fc.stringMatching(/^[ -~]{1,20}$/),
            metadata: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
            locale: fc.constantFrom("en", "fr", "de", "es", "it"),
            livemode: fc.boolean(),
          },
          { requiredKeys: ["age_required"] },
        ),
        async (body) => {
          const opened = await open(merchant.testKey, body);
          expect(opened.livemode).toBe(false);
          expect((await poll(merchant.testKey, opened.session_id)).body.data.livemode).toBe(false);
          const [row] = await (await dbOfSession(opened.session_id))
            .select()
            .from(verificationSessions)
            .where(eq(verificationSessions.id, opened.session_id));
          expect(row!.livemode).toBe(false);
        },
      ),
      { numRuns: 8 },
    );
  });

  it("old svc_sk_ keys (1.0.0) stay live keys", async () => {
    // Every key made before sharding is on shard 0 (the database that was the only one).
    const merchant = await seedMerchant("default key", "live", { shard: 0 });
    // A 1.0.0 key: svc_sk_ and 43 characters, stored by hash like every key.
    const legacy = `svc_sk_${"L".repeat(43)}`;
    const { sha256Hex } = await import("../../src/lib/crypto");
    const { apiKeys } = await import("../../src/db/schema");
    await (await dbOfAccount(merchant.account.id))
      .update(apiKeys)
      .set({ keyHash: await sha256Hex(legacy) })
      .where(eq(apiKeys.id, merchant.keyId));
    const opened = await open(legacy);
    expect(opened.livemode).toBe(true);
  });
});
