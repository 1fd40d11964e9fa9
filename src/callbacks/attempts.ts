// Callback attempts in D1, as the queue consumer writes them: one round trip claims the next attempt of
// an event (and reads what sending it needs), one records its outcome with the event's new state. D1
// has no interactive transactions, so each step is a single batch whose statements guard themselves.
import { and, desc, eq, isNull, lte, notExists, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiKeys, callbackAttempts, callbackEvents } from "../db/schema";

export type CallbackState = (typeof callbackEvents.$inferSelect)["state"];

/** The `error` of an attempt claimed by a consumer that has not recorded its outcome yet. */
export const IN_PROGRESS = "in_progress";
/** The `error` of a claimed attempt whose consumer never recorded an outcome (stopped mid-attempt). */
const INTERRUPTED = "interrupted";

/** What a claim found: the attempt is this caller's to send, or the reason it is not. */
export type Claim =
  /**
   * `signingSecretEnc` is null when the key is gone (its account was deleted); `previousSecretEnc` is
   * the secret a rotation replaced, while its grace lasts at the claim's time (null otherwise).
   */
  | { kind: "claimed"; attempt: number; signingSecretEnc: string | null; previousSecretEnc: string | null }
  /** The event went with its session's account: nothing to deliver, nobody to tell. */
  | { kind: "event_gone" }
  /** Already delivered or failed: a redelivered duplicate of a settled event. */
  | { kind: "settled" }
  /** The attempt this copy stood aside for has an outcome: its holder carried the event on. */
  | { kind: "superseded" }
  /** Another copy is sending this attempt now. */
  | { kind: "held"; attempt: number };

export type ClaimRequest = {
  eventId: string;
  /** The key whose signing secret signs the callback (a revoked key still signs its sessions' events). */
  keyId: string;
  /** Set on a copy that stood aside for another holder of this attempt. */
  awaitsAttempt: number | undefined;
  at: string;
  /** An attempt still in progress since before this was interrupted: its consumer stopped. */
  staleBefore: string;
};

/**
 * Inserts the event's next attempt row (numbered after its last) carrying `error`, only while the event
 * is pending and `guard` holds. The (event, attempt) pair is unique: two inserts of one number cannot
 * both succeed.
 */
function insertNextAttempt(db: Database, row: { eventId: string; at: string; error: string }, guard?: SQL) {
  const { eventId, at, error } = row;
  return db
    .insert(callbackAttempts)
    .select((qb) =>
      qb
        .select({
          id: sql<number>`null`.as("id"),
          eventId: callbackEvents.id,
          attempt: sql<number>`(select coalesce(max(${callbackAttempts.attempt}), 0) + 1 from ${callbackAttempts} where ${callbackAttempts.eventId} = ${eventId})`.as("attempt"),
          at: sql<string>`${at}`.as("at"),
          durationMs: sql<number>`0`.as("duration_ms"),
          statusCode: sql<number | null>`null`.as("status_code"),
          error: sql<string>`${error}`.as("error"),
        })
        .from(callbackEvents)
        .where(and(eq(callbackEvents.id, eventId), eq(callbackEvents.state, "pending"), guard)),
    )
    .onConflictDoNothing();
}

const unfinished = (error: string | null) => error === IN_PROGRESS || error === INTERRUPTED;

/**
 * Claims the next attempt of a pending event before anything is sent, so two copies of one queue message
 * processed at once cannot both deliver. In one batch: an attempt left in progress since `staleBefore`
 * is marked interrupted; the next attempt row (marked in progress) is inserted only while the event is
 * pending, no other attempt is in progress and, for a copy that stood aside, the attempt it awaits has
 * no outcome; then the event, its attempts and the key's encrypted signing secret (and the previous one, during a
 * rotation's grace) are read back, to
 * tell the caller why when the claim did not happen. Numbers run past MAX_ATTEMPTS when the last
 * attempts were interrupted: the caller closes the event with that one.
 */
export async function claimNextAttempt(db: Database, request: ClaimRequest): Promise<Claim> {
  const { eventId, keyId, awaitsAttempt, at, staleBefore } = request;
  const ofEvent = eq(callbackAttempts.eventId, eventId);
  const awaitedHasOutcome =
    awaitsAttempt === undefined
      ? undefined
      : db
          .select({ one: sql`1` })
          .from(callbackAttempts)
          .where(
            and(
              ofEvent,
              eq(callbackAttempts.attempt, awaitsAttempt),
              or(isNull(callbackAttempts.error), notInArray(callbackAttempts.error, [IN_PROGRESS, INTERRUPTED])),
            ),
          );
  const [, claimed, [event], attempts] = await db.batch([
    db
      .update(callbackAttempts)
      .set({ error: INTERRUPTED })
      .where(and(ofEvent, eq(callbackAttempts.error, IN_PROGRESS), lte(callbackAttempts.at, staleBefore))),
    insertNextAttempt(
      db,
      { eventId, at, error: IN_PROGRESS },
      and(
        notExists(db.select({ one: sql`1` }).from(callbackAttempts).where(and(ofEvent, eq(callbackAttempts.error, IN_PROGRESS)))),
        awaitedHasOutcome && notExists(awaitedHasOutcome),
      ),
    ).returning({ attempt: callbackAttempts.attempt }),
    db
      .select({
        state: callbackEvents.state,
        signingSecretEnc: apiKeys.signingSecretEnc,
        previousSecretEnc: apiKeys.previousSigningSecretEnc,
        previousSecretExpiresAt: apiKeys.previousSecretExpiresAt,
      })
      .from(callbackEvents)
      .leftJoin(apiKeys, eq(apiKeys.id, keyId))
      .where(eq(callbackEvents.id, eventId)),
    db.select({ attempt: callbackAttempts.attempt, error: callbackAttempts.error }).from(callbackAttempts).where(ofEvent).orderBy(desc(callbackAttempts.attempt)),
  ]);

  const mine = claimed[0];
  if (mine) {
    const inGrace = event?.previousSecretExpiresAt != null && event.previousSecretExpiresAt > at;
    return {
      kind: "claimed",
      attempt: mine.attempt,
      signingSecretEnc: event?.signingSecretEnc ?? null,
      previousSecretEnc: inGrace ? (event?.previousSecretEnc ?? null) : null,
    };
  }
  if (!event) return { kind: "event_gone" };
  if (event.state !== "pending") return { kind: "settled" };
  // Otherwise another copy holds an attempt, or the one this copy awaited has its outcome (checked
  // first: its holder carried the event on, whatever it holds now).
  const awaitedDone = attempts.some((a) => a.attempt === awaitsAttempt && !unfinished(a.error));
  const held = attempts.find((a) => a.error === IN_PROGRESS);
  return held && !awaitedDone ? { kind: "held", attempt: held.attempt } : { kind: "superseded" };
}

export type AttemptRecord = {
  eventId: string;
  attempt: number;
  at: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
};

/**
 * Records the outcome of a claimed attempt and the event's resulting state in one batch. Only a pending
 * event changes state: a duplicate queue delivery racing a finished one cannot turn `delivered` into `failed`.
 */
export async function recordAttempt(db: Database, record: AttemptRecord, state: CallbackState): Promise<void> {
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

/** Gives back a claimed attempt that was never sent, so the next try takes the same number. */
export async function releaseAttempt(db: Database, eventId: string, attempt: number): Promise<void> {
  await db
    .delete(callbackAttempts)
    .where(and(eq(callbackAttempts.eventId, eventId), eq(callbackAttempts.attempt, attempt), eq(callbackAttempts.error, IN_PROGRESS)));
}

/**
 * Marks a pending event failed with a last attempt record that says why (nothing was sent), in one
 * batch. False when the event was already settled or is gone.
 */
export async function failEvent(db: Database, eventId: string, at: string, error: string): Promise<boolean> {
  const [, closed] = await db.batch([
    insertNextAttempt(db, { eventId, at, error }),
    db
      .update(callbackEvents)
      .set({ state: "failed", updatedAt: at })
      .where(and(eq(callbackEvents.id, eventId), eq(callbackEvents.state, "pending")))
      .returning({ id: callbackEvents.id }),
  ]);
  return closed.length === 1;
}
