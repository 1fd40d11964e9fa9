// Callback events left pending after their queue message was lost are enqueued again by the scheduled
// run, in the callback message format and through the session's own queue, and delivered once.
import { env, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAIM_TTL_SECONDS } from "../../src/callbacks/consumer";
import { callbackMessage } from "../../src/session/callback-message";
import { VerificationSessionObject as VerificationSession } from "../../src/session/verification-session";
import { callbackAttempts, callbackEvents } from "../../src/db/schema";
import { resolutionStatements } from "../../src/session/session-mirror";
import { newId } from "../../src/lib/ids";
import { nextAttemptDueMs } from "../../src/maintenance/resend-stalled-callbacks";
import type { SessionState } from "../../src/session/state-machine";
import { eventState, seedResolvedSession } from "../helpers/callbacks";
import { seedMerchant } from "../helpers/seed";
import { openSession, sessionObject } from "../helpers/sessions";
import { runScheduled } from "./helpers";
import { dbHolding, dbOfAccount } from "../helpers/shards";

afterEach(() => vi.restoreAllMocks());

const HOOK = "https://merchant.example.com/hooks/stalled";

/**
 * Counts the scheduled run's re-enqueues at their one door: the session object's resendCallback, which
 * sends the message to the queue. The run awaits each call, so once it returns, a count of zero means
 * nothing was (or will be) sent: no waiting for a delivery that should not happen.
 */
const countResends = () => vi.spyOn(VerificationSession.prototype, "resendCallback");
/** Queue deliveries run in the background; on a loaded machine they can take longer than vi.waitFor's 1 s default. */
const DELIVERY = { timeout: 10_000 };

/**
 * A session resolved in its Durable Object and in D1 whose queue message never reached the queue (as
 * when `wrangler dev` restarts with the message in memory): the event is pending, nothing will deliver it.
 */
async function resolvedWithLostMessage(updatedSecondsAgo: number) {
  const merchant = await seedMerchant();
  const opened = await openSession(merchant.apiKey, 18, HOOK);
  const resolvedAt = new Date().toISOString();
  const state = await runInDurableObject(sessionObject(opened.session_id), async (_instance, storage) => {
    const current = (await storage.storage.get<SessionState>("state"))!;
    const resolved: SessionState = { ...current, status: "APPROVED", aboveAgeRequired: true, resolvedAt, receiptId: newId("rcpt") };
    await storage.storage.put("state", resolved);
    return resolved;
  });
  const message = callbackMessage(state, newId("msg"), 1);
  const shard = await dbOfAccount(merchant.account.id);
  await shard.$client.batch(
    resolutionStatements(
      shard,
      {
        sessionId: state.id,
        status: "APPROVED",
        aboveAgeRequired: true,
        receiptId: state.receiptId,
        resolvedAt,
        assurance: "KYC_VERIFIED",
        holderBinding: "PASSWORD",
        denialReason: null,
      },
      message,
    ),
  );
  const past = new Date(Date.now() - updatedSecondsAgo * 1000).toISOString();
  await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", message.webhookId))
    .update(callbackEvents)
    .set({ updatedAt: past, createdAt: past })
    .where(eq(callbackEvents.id, message.webhookId));
  return { merchant, message };
}

describe("re-enqueueing stalled callback events", () => {
  it("an event pending past CALLBACK_STALL_SECONDS is enqueued again and delivered once; a second run sends nothing", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { message } = await resolvedWithLostMessage(120);
    expect(env.CALLBACK_STALL_SECONDS).toBe("60");
    const resends = countResends();
    await runScheduled();
    expect(resends).toHaveBeenCalledTimes(1);
    expect(resends.mock.calls[0]![0]).toBe(message.webhookId);
    await vi.waitFor(async () => expect(await eventState(message.webhookId)).toBe("delivered"), DELIVERY);
    const posts = spy.mock.calls.filter(([input]) => String(input) === HOOK);
    expect(posts).toHaveLength(1);
    expect(new Headers(posts[0]![1]!.headers).get("webhook-id")).toBe(message.webhookId);
    expect(JSON.parse(String(posts[0]![1]!.body))).toEqual({ type: message.type, timestamp: message.timestamp, data: message.data });
    // Delivered now: the next run enqueues nothing.
    await runScheduled();
    expect(resends).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls.filter(([input]) => String(input) === HOOK)).toHaveLength(1);
  });

  it("an event not yet overdue is left to its queue message", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { message } = await resolvedWithLostMessage(20);
    const resends = countResends();
    await runScheduled();
    expect(resends).not.toHaveBeenCalled();
    expect(spy.mock.calls.filter(([input]) => String(input) === HOOK)).toHaveLength(0);
    expect(await eventState(message.webhookId)).toBe("pending");
  });

  it("an event whose last attempt's retry is still ahead (on its schedule) is left to its queue message", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { message } = await resolvedWithLostMessage(120);
    // Three attempts, the last two minutes ago: the fourth is due 30 minutes after it, not yet.
    const at = new Date(Date.now() - 120_000).toISOString();
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", message.webhookId))
      .insert(callbackAttempts)
      .values([1, 2, 3].map((attempt) => ({ eventId: message.webhookId, attempt, at, durationMs: 5, statusCode: 500, error: null })));
    const resends = countResends();
    await runScheduled();
    expect(resends).not.toHaveBeenCalled();
    expect(spy.mock.calls.filter(([input]) => String(input) === HOOK)).toHaveLength(0);
    expect(await eventState(message.webhookId)).toBe("pending");
  });

  it("a delivered or failed event is never re-enqueued, however long ago it settled", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const delivered = await resolvedWithLostMessage(600);
    const failed = await resolvedWithLostMessage(600);
    const settledAt = new Date(Date.now() - 600_000).toISOString();
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", delivered.message.webhookId))
      .update(callbackEvents)
      .set({ state: "delivered", updatedAt: settledAt })
      .where(eq(callbackEvents.id, delivered.message.webhookId));
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", failed.message.webhookId))
      .update(callbackEvents)
      .set({ state: "failed", updatedAt: settledAt })
      .where(eq(callbackEvents.id, failed.message.webhookId));
    const resends = countResends();
    await runScheduled();
    expect(resends).not.toHaveBeenCalled();
    expect(spy.mock.calls.filter(([input]) => String(input) === HOOK)).toHaveLength(0);
  });

  it("an event whose session object has forgotten it is reported, not re-enqueued", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant); // D1 only: no Durable Object state
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", message.webhookId))
      .update(callbackEvents)
      .set({ updatedAt: new Date(Date.now() - 600_000).toISOString() })
      .where(eq(callbackEvents.id, message.webhookId));
    const errors = vi.spyOn(console, "error");
    await runScheduled();
    expect(errors.mock.calls.flat().join("\n")).toContain(message.webhookId);
    expect(await eventState(message.webhookId)).toBe("pending");
  });
});

describe("when the next attempt was due", () => {
  const base = { id: "msg_x", sessionId: "ses_x", updatedAt: "2026-11-20T12:00:00.000Z", lastStatus: 500, lastError: null };
  const at = Date.parse(base.updatedAt);

  it("at once for an event never attempted", () => {
    expect(nextAttemptDueMs({ ...base, attempts: 0, lastAt: null })).toBe(at);
  });

  it("after the longest scheduled wait (with jitter) following the last attempt", () => {
    expect(nextAttemptDueMs({ ...base, attempts: 1, lastAt: base.updatedAt })).toBe(at + 5_000);
    expect(nextAttemptDueMs({ ...base, attempts: 3, lastAt: base.updatedAt })).toBe(at + 1_979_000); // 30 min + the most jitter (under 10 %)
  });

  it("after a 429 or 503, the longest Retry-After the consumer honours", () => {
    expect(nextAttemptDueMs({ ...base, attempts: 1, lastAt: base.updatedAt, lastStatus: 503 })).toBe(at + 24 * 3600 * 1000);
  });

  it("once the claim of an attempt left in progress expires", () => {
    const lastAt = "2026-11-20T12:05:00.000Z";
    expect(nextAttemptDueMs({ ...base, attempts: 2, lastAt, lastError: "in_progress" })).toBe(
      Date.parse(lastAt) + CLAIM_TTL_SECONDS * 1000,
    );
  });
});
