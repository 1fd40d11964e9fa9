// Redelivery and test events through the API and the real queue consumer.
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiKeys, callbackAttempts, callbackEvents, verificationSessions } from "../../src/db/schema";
import { eventState } from "../helpers/callbacks";
import { call, expectError } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, fireAlarm, openSession, sessionObject } from "../helpers/sessions";
import { dbHolding, dbOfAccount, dbOfSession } from "../helpers/shards";

afterEach(() => vi.restoreAllMocks());

const HOOK = "https://merchant.example.com/hooks/redelivery";
const redeliver = (token: string, sessionId: string) => call("POST", `/api/usage/sessions/${sessionId}/callbacks/redeliver`, { token });
const testCallback = (token: string, keyId: string, url: unknown) =>
  call("POST", `/api/keys/${keyId}/test-callback`, { token, body: { url } });

/** A session of `merchant` resolved by an end user; its callback answered with `statuses` in turn. */
async function resolvedSession(merchant: Awaited<ReturnType<typeof seedMerchant>>, statuses: (number | (() => Response))[], hook = HOOK) {
  const user = await seedEndUser("1990-01-01");
  let call = 0;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
    // A retry left over from an earlier test of this file may still reach HOOK: answered, not counted.
    if (hook !== HOOK && String(input) === HOOK) return new Response(null, { status: 204 });
    if (String(input) !== hook) throw new Error(`unexpected fetch ${String(input)}`);
    const next = statuses[Math.min(call++, statuses.length - 1)]!;
    return typeof next === "number" ? new Response(null, { status: next }) : next();
  });
  const opened = await openSession(merchant.apiKey, 18, hook);
  expect((await complete(user.token, opened.session_id, opened.nonce)).status).toBe(200);
  const [event] = await (await dbOfSession(opened.session_id))
    .select()
    .from(callbackEvents)
    .where(eq(callbackEvents.sessionId, opened.session_id));
  return { sessionId: opened.session_id, webhookId: event!.id, spy };
}

/** Queue deliveries run in the background; on a loaded machine they can take longer than vi.waitFor's 1 s default. */
const DELIVERY = { timeout: 10_000 };

const attemptsOf = async (webhookId: string) =>
  (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", webhookId))
    .select()
    .from(callbackAttempts)
    .where(eq(callbackAttempts.eventId, webhookId))
    .orderBy(callbackAttempts.attempt);
const posts = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([input]) => String(input) === HOOK).map(([, init]) => init as RequestInit);

describe("redelivering a session's callback", () => {
  it("sends a delivered event again as a new attempt with the same webhook-id, signed, recorded in the log", async () => {
    const merchant = await seedMerchant();
    const { sessionId, webhookId, spy } = await resolvedSession(merchant, [204]);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);

    const res = await redeliver(merchant.account.token, sessionId);
    expect(res.status).toBe(202);
    expect(res.body.data).toEqual({ webhook_id: webhookId, type: "age_verification.session.approved", state: "pending" });
    await vi.waitFor(async () => expect(await attemptsOf(webhookId)).toHaveLength(2), DELIVERY);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);
    const sent = posts(spy);
    expect(sent).toHaveLength(2);
    const [first, second] = sent.map((init) => ({ body: String(init.body), headers: Object.fromEntries(new Headers(init.headers)) }));
    expect(second!.headers["webhook-id"]).toBe(webhookId);
    expect(second!.body).toBe(first!.body);
    expect(new Webhook(merchant.signingSecret).verify(second!.body, second!.headers)).toBeTruthy();
    const log = await call("GET", `/api/usage/sessions/${sessionId}/callbacks`, { token: merchant.account.token });
    expect(log.body.data.events[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([204, 204]);
  });

  it("a failed event (410 stopped it) is sent once more, off the schedule: a 2xx makes it delivered, a failure leaves it failed without retries", async () => {
    const merchant = await seedMerchant();
    const { sessionId, webhookId, spy } = await resolvedSession(merchant, [410, 500, 200]);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("failed"), DELIVERY);

    expect((await redeliver(merchant.account.token, sessionId)).status).toBe(202);
    await vi.waitFor(async () => expect((await attemptsOf(webhookId)).at(-1)?.statusCode).toBe(500), DELIVERY);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("failed"), DELIVERY);
    // One attempt only: no retry was scheduled for the 500.
    expect(posts(spy)).toHaveLength(2);

    expect((await redeliver(merchant.account.token, sessionId)).status).toBe(202);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);
    expect((await attemptsOf(webhookId)).map((a) => a.statusCode)).toEqual([410, 500, 200]);
  });

  it("another account's session is 404, an unresolved one is 409, and neither sends anything", async () => {
    const merchant = await seedMerchant();
    // On the merchant's shard, so that a read which forgot the account would find the session.
    const other = await seedMerchant("other", "live", { shard: merchant.shard });
    const { sessionId, webhookId, spy } = await resolvedSession(merchant, [204]);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);
    expectError(await redeliver(other.account.token, sessionId), 404, "NOT_FOUND");
    expectError(await redeliver(merchant.account.token, "ses_notasessionnotasession"), 404, "NOT_FOUND");
    const pending = await openSession(merchant.apiKey, 18, HOOK);
    expectError(await redeliver(merchant.account.token, pending.session_id), 409, "NOTHING_TO_REDELIVER");
    expect(posts(spy)).toHaveLength(1);
    expect(await eventState(webhookId)).toBe("delivered");
  });

  it("is limited per account: 429 with Retry-After past the limit, shared with test events", async () => {
    const merchant = await seedMerchant();
    const other = await seedMerchant();
    const { sessionId, webhookId } = await resolvedSession(merchant, [204]);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);
    let limited: Awaited<ReturnType<typeof redeliver>> | undefined;
    for (let i = 0; i < 15 && !limited; i++) {
      const res = await redeliver(merchant.account.token, sessionId);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expectError(limited!, 429, "RATE_LIMITED");
    expect(limited!.headers.get("retry-after")).toBe("60");
    // The limit is the account's, shared with test events; another account is not affected.
    expectError(await testCallback(merchant.account.token, merchant.keyId, HOOK), 429, "RATE_LIMITED");
    // Another account redelivering its own session goes through: the limit is per account, not global.
    const own = await resolvedSession(other, [204]);
    await vi.waitFor(async () => expect(await eventState(own.webhookId)).toBe("delivered"), DELIVERY);
    const res = await redeliver(other.account.token, own.sessionId);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ webhook_id: own.webhookId, state: "pending" });
  });
});

describe("redelivery and the event's schedule and retention", () => {
  it("a pending event keeps its schedule: a redelivered attempt that fails leaves it pending for its retries, not failed", async () => {
    const merchant = await seedMerchant();
    // The first answer asks for an hour's wait, so the schedule's own retry cannot interleave below.
    // Its own URL, so that no retry left over from an earlier test takes one of its answers.
    const { sessionId, webhookId } = await resolvedSession(
      merchant,
      [() => new Response(null, { status: 429, headers: { "retry-after": "3600" } }), 500],
      `${HOOK}/schedule`,
    );
    await vi.waitFor(async () => expect(await attemptsOf(webhookId)).toHaveLength(1), DELIVERY);
    expect((await attemptsOf(webhookId))[0]!.statusCode).toBe(429);
    expect(await eventState(webhookId)).toBe("pending");

    expect((await redeliver(merchant.account.token, sessionId)).status).toBe(202);
    await vi.waitFor(async () => expect((await attemptsOf(webhookId)).map((a) => a.statusCode)).toEqual([429, 500]), DELIVERY);
    // A settled event redelivered gets one attempt and is failed again; a pending one stays on its schedule.
    expect(await eventState(webhookId)).toBe("pending");
  });

  it("a session past its retention is 409 NOTHING_TO_REDELIVER, sends nothing and leaves its event as it was", async () => {
    const merchant = await seedMerchant();
    const hook = `${HOOK}/retention`;
    const { sessionId, webhookId, spy } = await resolvedSession(merchant, [204], hook);
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"), DELIVERY);
    // Its object forgets it the way retention does: resolved longer ago than RESOLVED_RETENTION_MS, then the alarm.
    await runInDurableObject(sessionObject(sessionId), async (_instance, state) => {
      const current = await state.storage.get<Record<string, unknown>>("state");
      await state.storage.put("state", { ...current, resolvedAt: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() });
    });
    await fireAlarm(sessionId);
    await runInDurableObject(sessionObject(sessionId), async (_instance, state) =>
      expect(await state.storage.get("state")).toBeUndefined(),
    );

    const res = await redeliver(merchant.account.token, sessionId);
    expectError(res, 409, "NOTHING_TO_REDELIVER");
    expect(res.body.message).toMatch(/retention/);
    expect(await eventState(webhookId)).toBe("delivered");
    expect(await attemptsOf(webhookId)).toHaveLength(1);
    expect(spy.mock.calls.filter(([input]) => String(input) === hook)).toHaveLength(1);
  });
});

describe("sending a test event", () => {
  it("POSTs a signed age_verification.test event and reports the receiver's status and a coarse duration; nothing is logged", async () => {
    const merchant = await seedMerchant();
    // The receiver answers after 40 ms: the report says a second, not the receiver's timing (docs/security-privacy.md).
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      await scheduler.wait(40);
      return new Response("nope", { status: 500 });
    });
    const sentAt = Date.now();
    const res = await testCallback(merchant.account.token, merchant.keyId, HOOK);
    // The answer itself waits for the rounded second: the caller's own clock learns no more than the body.
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1000);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: "age_verification.test",
      delivered: false,
      status_code: 500,
      error: null,
      signatures: 1,
      duration_ms: 1000,
    });
    const [init] = posts(spy);
    const headers = Object.fromEntries(new Headers(init!.headers));
    expect(headers["webhook-id"]).toBe(res.body.data.webhook_id);
    const payload = new Webhook(merchant.signingSecret).verify(String(init!.body), headers) as { type: string; data: { key_id: string } };
    expect(payload.type).toBe("age_verification.test");
    expect(payload.data.key_id).toBe(merchant.keyId);
    // No session, no event, no attempt was written.
    expect(
      await (await dbOfAccount(merchant.account.id)).select().from(callbackEvents).where(eq(callbackEvents.id, res.body.data.webhook_id)),
    ).toHaveLength(0);
    expect(
      await (await dbOfAccount(merchant.account.id))
        .select()
        .from(verificationSessions)
        .where(eq(verificationSessions.accountId, merchant.account.id)),
    ).toHaveLength(0);

    spy.mockImplementation(async () => new Response(null, { status: 204 }));
    expect((await testCallback(merchant.account.token, merchant.keyId, HOOK)).body.data).toMatchObject({
      delivered: true,
      status_code: 204,
    });
  });

  it("during a rotation's grace carries both signatures; a network failure is reported as such", async () => {
    const merchant = await seedMerchant();
    const fresh: string = (
      await call("POST", `/api/keys/${merchant.keyId}/rotate-signing-secret`, { token: merchant.account.token, body: {} })
    ).body.data.signingSecret;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 200 }));
    const res = await testCallback(merchant.account.token, merchant.keyId, HOOK);
    expect(res.body.data.signatures).toBe(2);
    const [init] = posts(spy);
    const headers = Object.fromEntries(new Headers(init!.headers));
    for (const secret of [fresh, merchant.signingSecret]) expect(new Webhook(secret).verify(String(init!.body), headers)).toBeTruthy();

    // Once the grace has ended, only the new secret signs.
    await (await dbOfAccount(merchant.account.id))
      .update(apiKeys)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, merchant.keyId));
    spy.mockClear();
    expect((await testCallback(merchant.account.token, merchant.keyId, HOOK)).body.data.signatures).toBe(1);
    const after = Object.fromEntries(new Headers(posts(spy)[0]!.headers));
    expect(after["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(new Webhook(fresh).verify(String(posts(spy)[0]!.body), after)).toBeTruthy();

    spy.mockImplementation(async () => {
      throw new TypeError("connection refused");
    });
    expect((await testCallback(merchant.account.token, merchant.keyId, HOOK)).body.data).toMatchObject({
      delivered: false,
      status_code: null,
      error: "network_error",
    });
  });

  it("a URL the callback rules refuse is 422, another account's key 404; nothing is sent", async () => {
    const merchant = await seedMerchant();
    const other = await seedMerchant();
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    for (const url of [
      "http://merchant.example.com/hook",
      "https://10.0.0.1/hook",
      "https://user:pw@merchant.example.com/",
      "not a url",
      42,
    ]) {
      expectError(await testCallback(merchant.account.token, merchant.keyId, url), 422, "VALIDATION_FAILED");
    }
    expectError(await testCallback(other.account.token, merchant.keyId, HOOK), 404, "NOT_FOUND");
    expect(spy).not.toHaveBeenCalled();
  });
});
