// The session object's outbox: a resolution is mirrored to the D1 log and its callback's queue copy
// enqueued (the safety net beside the first attempt made at once: src/callbacks/first-attempt.ts); when
// either write fails, the change waits in the object's storage and the alarm (10 s later) writes it,
// so the event is neither lost nor delivered twice.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallbackMessage } from "../../src/session/callback-message";
import type { ServiceContext } from "../../src/context/service-context";
import { serviceContext } from "../../src/service";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, poll, sessionObject } from "../helpers/sessions";
import { dbOfSession } from "../helpers/shards";
import { shardBindings } from "../helpers/shards";
import { shardBindingName } from "../../src/config/shards-setting";
import { rowWhere } from "../helpers/rows";

type Writes = { sends: CallbackMessage[]; failures: { queue: number; d1: number } };

/**
 * Replaces, inside the live object, the queue binding and the D1 client with ones that fail the next
 * `failures` calls (send, batch) and record every message the queue accepted.
 */
async function withFailingWrites(sessionId: string, failures: Writes["failures"]): Promise<Writes> {
  const writes: Writes = { sends: [], failures };
  await runInDurableObject(sessionObject(sessionId), async (instance) => {
    const object = instance as unknown as { env: Env; root: ServiceContext };
    const queue = object.env.CALLBACKS;
    const flakyQueue = {
      send: async (message: CallbackMessage) => {
        if (writes.failures.queue > 0) {
          writes.failures.queue--;
          throw new Error("queue unavailable");
        }
        writes.sends.push(message);
        return queue.send(message);
      },
    } as unknown as Queue;
    const flaky = (d1: D1Database) =>
      new Proxy(d1, {
        get(target, prop) {
          if (prop === "batch") {
            return async (statements: D1PreparedStatement[]) => {
              if (writes.failures.d1 > 0) {
                writes.failures.d1--;
                throw new Error("D1_ERROR: database unavailable");
              }
              return target.batch(statements);
            };
          }
          const value = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    // Every shard's binding fails alike: the merchant's may be any of them.
    const shards = Object.fromEntries(shardBindings(object.env).map((d1, shard) => [shardBindingName(shard), flaky(d1)]));
    object.env = { ...object.env, CALLBACKS: flakyQueue, ...shards };
    object.root = serviceContext(object.env);
  });
  return writes;
}

const scheduledAlarm = (sessionId: string) => runInDurableObject(sessionObject(sessionId), (_instance, state) => state.storage.getAlarm());
const pendingOutbox = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), (_instance, state) => state.storage.get("outbox"));
const logRow = async (sessionId: string) =>
  rowWhere(await dbOfSession(sessionId), verificationSessions, eq(verificationSessions.id, sessionId));
const eventsOf = async (sessionId: string) =>
  (await dbOfSession(sessionId)).select().from(callbackEvents).where(eq(callbackEvents.sessionId, sessionId));

afterEach(() => {
  vi.restoreAllMocks();
});

async function approvedWith(failures: Writes["failures"]) {
  // The merchant's server answers 2xx: the first attempt delivers, and the queue holds only its copy.
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
  const merchant = await seedMerchant();
  const user = await seedEndUser("1990-01-01");
  const opened = await openSession(merchant.apiKey);
  const writes = await withFailingWrites(opened.session_id, failures);
  const before = Date.now();
  const completed = await complete(user.token, opened.session_id, opened.nonce);
  const after = Date.now();
  // The decision stands for the end user and the merchant's poll, whatever the writes did.
  expect(completed.body.data.status).toBe("APPROVED");
  expect((await poll(merchant.apiKey, opened.session_id)).body.data.status).toBe("APPROVED");
  return { merchant, opened, writes, completed, before, after };
}

describe("session outbox", () => {
  it("a failed D1 mirror is written by the alarm, and the callback is enqueued once, after it", async () => {
    const { opened, writes, completed, before, after } = await approvedWith({ queue: 0, d1: 1 });
    expect(writes.sends).toEqual([]);
    expect(await pendingOutbox(opened.session_id)).toBeDefined();
    expect((await logRow(opened.session_id))!.status).toBe("PENDING");
    expect(await eventsOf(opened.session_id)).toEqual([]);
    // Retried in 10 s, not at expiry.
    const alarm = (await scheduledAlarm(opened.session_id))!;
    expect(alarm).toBeGreaterThanOrEqual(before + 10_000);
    expect(alarm).toBeLessThanOrEqual(after + 10_000);

    expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
    expect(await pendingOutbox(opened.session_id)).toBeUndefined();
    expect(await logRow(opened.session_id)).toMatchObject({ status: "APPROVED", receiptId: completed.body.data.receipt_id });
    expect((await eventsOf(opened.session_id)).map((e) => e.type)).toEqual(["age_verification.session.approved"]);
    // One message: the queue's copy, which waits for attempt 1.
    expect(writes.sends.map((m) => [m.sessionId, m.type, m.awaitsAttempt])).toEqual([
      [opened.session_id, "age_verification.session.approved", 1],
    ]);

    // Nothing is left to send: a later alarm sends nothing again.
    await runInDurableObject(sessionObject(opened.session_id), (instance) => (instance as unknown as { alarm(): Promise<void> }).alarm());
    expect(writes.sends).toHaveLength(1);
  });

  it("a failed queue send is retried by the alarm: one message, one event row, however often the mirror ran", async () => {
    const { opened, writes, completed } = await approvedWith({ queue: 1, d1: 0 });
    // The mirror got through; the callback did not.
    expect((await logRow(opened.session_id))!.status).toBe("APPROVED");
    expect(writes.sends).toEqual([]);
    expect(await pendingOutbox(opened.session_id)).toBeDefined();

    expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
    expect(await pendingOutbox(opened.session_id)).toBeUndefined();
    expect(writes.sends).toHaveLength(1);
    expect(writes.sends[0]).toMatchObject({
      sessionId: opened.session_id,
      type: "age_verification.session.approved",
      data: { status: "APPROVED", receipt_id: completed.body.data.receipt_id },
    });
    const events = await eventsOf(opened.session_id);
    expect(events.map((e) => e.id)).toEqual([writes.sends[0]!.webhookId]);
  });

  it("an outbox stored before 1.2.0 (no assurance, holder binding or denial reason in its message) is still written and sent", async () => {
    const { opened, writes, completed } = await approvedWith({ queue: 0, d1: 1 });
    // The message as 1.1.0 stored it: its session view had none of the three fields.
    await runInDurableObject(sessionObject(opened.session_id), async (_instance, state) => {
      const outbox = (await state.storage.get<{ message: CallbackMessage }>("outbox"))!;
      const { assurance: _a, holder_binding: _h, denial_reason: _d, ...older } = outbox.message.data;
      await state.storage.put("outbox", { message: { ...outbox.message, data: older } });
    });

    expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
    expect(await pendingOutbox(opened.session_id)).toBeUndefined();
    expect(await logRow(opened.session_id)).toMatchObject({
      status: "APPROVED",
      receiptId: completed.body.data.receipt_id,
      assurance: null,
      holderBinding: null,
      denialReason: null,
    });
    expect(writes.sends.map((m) => m.type)).toEqual(["age_verification.session.approved"]);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
  });

  it("keeps retrying while the writes fail, then delivers once", async () => {
    const { opened, writes } = await approvedWith({ queue: 1, d1: 2 });
    // The first try and two alarms fail (D1, D1 then the queue); the third alarm gets through.
    for (let alarm = 1; alarm <= 2; alarm++) {
      expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
      expect(await pendingOutbox(opened.session_id)).toBeDefined();
    }
    expect(writes.sends).toEqual([]);
    expect(await runDurableObjectAlarm(sessionObject(opened.session_id))).toBe(true);
    expect(await pendingOutbox(opened.session_id)).toBeUndefined();
    expect(writes.sends).toHaveLength(1);
    expect(await eventsOf(opened.session_id)).toHaveLength(1);
    // Delivered: the next alarm is the retention one, 30 days after the resolution.
    const resolvedAt = Date.parse((await logRow(opened.session_id))!.resolvedAt!);
    expect(await scheduledAlarm(opened.session_id)).toBe(resolvedAt + 2_592_000_000);
  });
});
