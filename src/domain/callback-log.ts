// The callback delivery log in D1: one event per resolution (written by the session Durable Object),
// one row per attempt (written by the queue consumer), read back by the merchant.
import { and, asc, count, eq, inArray } from "drizzle-orm";
import * as z from "zod";
import type { Database } from "../db/client";
import { callbackAttempts, callbackEvents, verificationSessions } from "../db/schema";
import { notFound } from "../errors";
import { isIdOf } from "../lib/ids";

export type CallbackEventRow = typeof callbackEvents.$inferSelect;
export type CallbackState = CallbackEventRow["state"];

export type AttemptRecord = {
  eventId: string;
  attempt: number;
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

export const findCallbackEvent = (db: Database, webhookId: string) =>
  db.query.callbackEvents.findFirst({ where: eq(callbackEvents.id, webhookId) });

export async function countAttempts(db: Database, eventId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(callbackAttempts).where(eq(callbackAttempts.eventId, eventId));
  return row?.n ?? 0;
}

/**
 * Records one attempt and the event's resulting state in one batch. Only a pending event changes
 * state: a duplicate queue delivery racing a finished one cannot turn `delivered` into `failed`.
 */
export async function recordAttempt(db: Database, record: AttemptRecord, state: CallbackState): Promise<void> {
  await db.batch([
    // The (event, attempt) pair is unique: a duplicate delivery of the same attempt is recorded once.
    db.insert(callbackAttempts).values(record).onConflictDoNothing(),
    db
      .update(callbackEvents)
      .set({ state, updatedAt: record.at })
      .where(and(eq(callbackEvents.id, record.eventId), eq(callbackEvents.state, "pending"))),
  ]);
}

export const CallbackAttemptView = z.object({
  at: z.iso.datetime(),
  duration_ms: z.int(),
  status_code: z.int().nullable(),
  error: z.string().nullable(),
});

export const CallbackEventView = z.object({
  webhook_id: z.string(),
  type: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(CallbackAttemptView),
});
export type CallbackEventView = z.infer<typeof CallbackEventView>;

/** The callback events of one of the account's own sessions; any other session is 404. */
export async function listSessionCallbacks(db: Database, accountId: string, sessionId: string): Promise<CallbackEventView[]> {
  if (!isIdOf("ses", sessionId)) throw notFound("Session");
  const session = await db.query.verificationSessions.findFirst({
    columns: { id: true },
    where: and(eq(verificationSessions.id, sessionId), eq(verificationSessions.accountId, accountId)),
  });
  if (!session) throw notFound("Session");
  const events = await db
    .select()
    .from(callbackEvents)
    .where(eq(callbackEvents.sessionId, sessionId))
    .orderBy(asc(callbackEvents.createdAt), asc(callbackEvents.id));
  if (events.length === 0) return [];
  const attempts = await db
    .select()
    .from(callbackAttempts)
    .where(
      inArray(
        callbackAttempts.eventId,
        events.map((e) => e.id),
      ),
    )
    .orderBy(asc(callbackAttempts.attempt));
  return events.map((event) => ({
    webhook_id: event.id,
    type: event.type,
    state: event.state,
    attempts: attempts
      .filter((a) => a.eventId === event.id)
      .map((a) => ({ at: a.at, duration_ms: a.durationMs, status_code: a.statusCode, error: a.error })),
  }));
}
