// The callback delivery log in D1: one event per resolution (written by the session Durable Object),
// one row per attempt (written by the queue consumer), read back by the merchant.
import { and, asc, count, desc, eq, gt, inArray, lte, notExists, sql } from "drizzle-orm";
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

/** The `error` of an attempt claimed by a consumer that has not recorded its outcome yet. */
export const IN_PROGRESS = "in_progress";
/** The `error` of a claimed attempt whose consumer never recorded an outcome (stopped mid-attempt). */
export const INTERRUPTED = "interrupted";

/** The latest attempt of an event, claimed or finished; undefined before the first. */
export const latestAttempt = (db: Database, eventId: string) =>
  db.query.callbackAttempts.findFirst({ where: eq(callbackAttempts.eventId, eventId), orderBy: desc(callbackAttempts.attempt) });

export const findAttempt = (db: Database, eventId: string, attempt: number) =>
  db.query.callbackAttempts.findFirst({ where: and(eq(callbackAttempts.eventId, eventId), eq(callbackAttempts.attempt, attempt)) });

/**
 * Claims attempt `attempt` of a pending event before anything is sent, so two copies of one queue message
 * processed at once cannot both deliver: one statement inserts the attempt row (marked in progress) only
 * when the event is still pending and no other attempt of it is in progress (claimed after
 * `freshAfter`); the (event, attempt) unique index settles two claims of the same number. True when this
 * caller holds the attempt. An attempt still in progress from before `freshAfter` was interrupted: it is
 * marked so, and no longer blocks a claim.
 */
export async function claimAttempt(db: Database, claim: { eventId: string; attempt: number; at: string; freshAfter: string }): Promise<boolean> {
  const { eventId, attempt, at, freshAfter } = claim;
  const inProgress = and(eq(callbackAttempts.eventId, eventId), eq(callbackAttempts.error, IN_PROGRESS));
  const [, claimed] = await db.batch([
    db
      .update(callbackAttempts)
      .set({ error: INTERRUPTED })
      .where(and(inProgress, lte(callbackAttempts.at, freshAfter))),
    db
      .insert(callbackAttempts)
      .select((qb) =>
        qb
          .select({
            id: sql<number>`null`.as("id"),
            eventId: callbackEvents.id,
            attempt: sql<number>`${attempt}`.as("attempt"),
            at: sql<string>`${at}`.as("at"),
            durationMs: sql<number>`0`.as("duration_ms"),
            statusCode: sql<number | null>`null`.as("status_code"),
            error: sql<string>`${IN_PROGRESS}`.as("error"),
          })
          .from(callbackEvents)
          .where(
            and(
              eq(callbackEvents.id, eventId),
              eq(callbackEvents.state, "pending"),
              notExists(db.select({ one: sql`1` }).from(callbackAttempts).where(and(inProgress, gt(callbackAttempts.at, freshAfter)))),
            ),
          ),
      )
      .onConflictDoNothing()
      .returning({ id: callbackAttempts.id }),
  ]);
  return claimed.length === 1;
}

/**
 * Records the outcome of a claimed attempt and the event's resulting state in one batch. Only a pending
 * event changes state: a duplicate queue delivery racing a finished one cannot turn `delivered` into `failed`.
 */
export async function recordClaimedAttempt(db: Database, record: AttemptRecord, state: CallbackState): Promise<void> {
  await db.batch([
    db
      .update(callbackAttempts)
      .set({ at: record.at, durationMs: record.durationMs, statusCode: record.statusCode, error: record.error })
      .where(and(eq(callbackAttempts.eventId, record.eventId), eq(callbackAttempts.attempt, record.attempt))),
    db
      .update(callbackEvents)
      .set({ state, updatedAt: record.at })
      .where(and(eq(callbackEvents.id, record.eventId), eq(callbackEvents.state, "pending"))),
  ]);
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
