// docs/integrating.md, Idempotency-Key on opening a session (draft-ietf-httpapi-idempotency-key-header): same key and
// body answer the first response again, another body is 422, a request still in flight is 409; scoped to
// the account; records expire after 24 hours and the scheduled clean-up removes them.
import { and, count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idempotencyKeys, verificationSessions } from "../../src/db/schema";
import { addSeconds, nowIso } from "../../src/lib/time";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { CALLBACK_URL } from "../helpers/sessions";
import { daysAgo, runScheduled } from "../maintenance/helpers";
import { dbOfAccount } from "../helpers/shards";

const body = { age_required: 18, callback_url: CALLBACK_URL, reference: "order-1" };
const open = (apiKey: string, key: string | undefined, payload: Record<string, unknown> = body) =>
  call("POST", "/api/age-verification/session", { apiKey, body: payload, headers: key === undefined ? {} : { "idempotency-key": key } });
const sessionsOf = async (accountId: string) =>
  (
    await (
      await dbOfAccount(accountId)
    )
      .select({ n: count() })
      .from(verificationSessions)
      .where(eq(verificationSessions.accountId, accountId))
  )[0]!.n;

describe("Idempotency-Key", () => {
  it("a retry with the same key and body answers the same status and body and opens nothing more", async () => {
    const merchant = await seedMerchant();
    const first = await open(merchant.apiKey, "order-1-attempt");
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await open(merchant.apiKey, "order-1-attempt");
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await sessionsOf(merchant.account.id)).toBe(1);
    // Without the header every request opens a session, as in 1.0.0.
    await open(merchant.apiKey, undefined);
    await open(merchant.apiKey, undefined);
    expect(await sessionsOf(merchant.account.id)).toBe(3);
  });

  it("the same key with another body is 422 IDEMPOTENCY_KEY_REUSED and opens nothing", async () => {
    const merchant = await seedMerchant();
    await open(merchant.apiKey, "k-1");
    expectError(await open(merchant.apiKey, "k-1", { ...body, age_required: 21 }), 422, "IDEMPOTENCY_KEY_REUSED");
    expectError(await open(merchant.apiKey, "k-1", { ...body, reference: "order-2" }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await sessionsOf(merchant.account.id)).toBe(1);
  });

  it("a retry while the first request is in flight is 409 IDEMPOTENCY_IN_PROGRESS", async () => {
    const merchant = await seedMerchant();
    // Concurrent requests with one key: exactly one session, and every 201 is that session.
    const answers = await Promise.all([open(merchant.apiKey, "race"), open(merchant.apiKey, "race"), open(merchant.apiKey, "race")]);
    expect(await sessionsOf(merchant.account.id)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body.data.session_id)).size).toBe(1);
    for (const other of answers.filter((a) => a.status !== 201)) expectError(other, 409, "IDEMPOTENCY_IN_PROGRESS");

    // The in-flight state itself, as the first request leaves it while its session is being opened.
    const { requestFingerprint } = await import("../../src/domain/verification/idempotency");
    const now = nowIso();
    await (await dbOfAccount(merchant.account.id)).insert(idempotencyKeys).values({
      accountId: merchant.account.id,
      keyId: merchant.keyId,
      key: "in-flight",
      requestHash: await requestFingerprint({ age_required: 18, callback_url: CALLBACK_URL, reference: "order-1" }),
      statusCode: null,
      responseBody: null,
      createdAt: now,
      expiresAt: addSeconds(now, 86_400),
    });
    expectError(await open(merchant.apiKey, "in-flight"), 409, "IDEMPOTENCY_IN_PROGRESS");
    expect(await sessionsOf(merchant.account.id)).toBe(1);
  });

  it("a claim abandoned past its lease, and a record past 24 hours, are taken over by the next request", async () => {
    const merchant = await seedMerchant();
    const old = daysAgo(0.01); // 14 minutes: past the 60-second lease
    await (await dbOfAccount(merchant.account.id)).insert(idempotencyKeys).values([
      {
        accountId: merchant.account.id,
        keyId: merchant.keyId,
        key: "crashed",
        requestHash: "x",
        statusCode: null,
        responseBody: null,
        createdAt: old,
        expiresAt: daysAgo(-1),
      },
      {
        accountId: merchant.account.id,
        keyId: merchant.keyId,
        key: "expired",
        requestHash: "x",
        statusCode: 201,
        responseBody: "{}",
        createdAt: daysAgo(2),
        expiresAt: daysAgo(1),
      },
    ]);
    expect((await open(merchant.apiKey, "crashed")).status).toBe(201);
    expect((await open(merchant.apiKey, "expired")).status).toBe(201);
    expect(await sessionsOf(merchant.account.id)).toBe(2);
  });

  it("keys are scoped to the API key: another merchant's same key opens its own session", async () => {
    const a = await seedMerchant();
    // On the first merchant's shard, so that a read which forgot the account would meet the first merchant's rows.
    const b = await seedMerchant("other", "live", { shard: a.shard });
    const fromA = await open(a.apiKey, "shared-key");
    const fromB = await open(b.apiKey, "shared-key");
    expect(fromB.status).toBe(201);
    expect(fromB.body.data.session_id).not.toBe(fromA.body.data.session_id);
  });

  it("a failed first request releases its key; a malformed key is 422", async () => {
    const merchant = await seedMerchant();
    const bad = await open(merchant.apiKey, "retry-after-fix", { ...body, callback_url: "https://10.0.0.1/cb" });
    expectError(bad, 422, "VALIDATION_FAILED");
    const rows = await (await dbOfAccount(merchant.account.id))
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, merchant.account.id), eq(idempotencyKeys.key, "retry-after-fix")));
    expect(rows).toEqual([]);
    expect((await open(merchant.apiKey, "retry-after-fix")).status).toBe(201);
    expectError(await open(merchant.apiKey, "x".repeat(256)), 422, "VALIDATION_FAILED");
    expectError(await open(merchant.apiKey, "tab\there"), 422, "VALIDATION_FAILED");
    expect(await sessionsOf(merchant.account.id)).toBe(1);
  });

  it("the scheduled clean-up deletes records past their expiry and keeps the others", async () => {
    const merchant = await seedMerchant();
    await (await dbOfAccount(merchant.account.id)).insert(idempotencyKeys).values([
      {
        accountId: merchant.account.id,
        keyId: merchant.keyId,
        key: "old",
        requestHash: "x",
        statusCode: 201,
        responseBody: "{}",
        createdAt: daysAgo(2),
        expiresAt: daysAgo(1),
      },
      {
        accountId: merchant.account.id,
        keyId: merchant.keyId,
        key: "fresh",
        requestHash: "x",
        statusCode: 201,
        responseBody: "{}",
        createdAt: daysAgo(0.5),
        expiresAt: daysAgo(-0.5),
      },
    ]);
    await runScheduled();
    const left = await (await dbOfAccount(merchant.account.id))
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.accountId, merchant.account.id));
    expect(left).toEqual([{ key: "fresh" }]);
  });
});
