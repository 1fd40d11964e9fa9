// Callback attempts in D1, as the queue consumer writes them: one round trip claims the next attempt of
// an event (and reads what sending it needs), one records its outcome with the event's new state. D1
// has no interactive transactions, so each step is a single batch whose statements guard themselves.
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { prepared } from "../db/prepared";
import { callbackAttempts, callbackEvents } from "../db/schema";

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
          attempt:
            sql<number>`(select coalesce(max(${callbackAttempts.attempt}), 0) + 1 from ${callbackAttempts} where ${callbackAttempts.eventId} = ${eventId})`.as(
              "attempt",
            ),
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

// The claim's one batch in D1's own prepared statements (src/db/prepared.ts): drizzle's builder spent some
// 180 µs of CPU assembling these four for every queue message, every safety-net copy included
// (docs/performance.md). The text is what the builder generated, so the guards are unchanged; the
// callback tests (claims racing, crashes mid-attempt, copies standing aside) run every branch.
const INTERRUPT_STALE =
  'update "callback_attempts" set "error" = ? where ("callback_attempts"."event_id" = ? and "callback_attempts"."error" = ? and "callback_attempts"."at" <= ?)';
/** The next attempt, in progress, while the event is pending and no other attempt is in progress. */
const CLAIM_NEXT_SELECT =
  'insert into "callback_attempts" ("id", "event_id", "attempt", "at", "duration_ms", "status_code", "error") select null as "id", "id", ' +
  '(select coalesce(max("attempt"), 0) + 1 from "callback_attempts" where "event_id" = ?) as "attempt", ? as "at", 0 as "duration_ms", null as "status_code", ? as "error" ' +
  'from "callback_events" where ("callback_events"."id" = ? and "callback_events"."state" = ? and ';
const NONE_IN_PROGRESS =
  'not exists (select 1 from "callback_attempts" where ("callback_attempts"."event_id" = ? and "callback_attempts"."error" = ?))';
const CLAIM_END = ') on conflict do nothing returning "attempt"';
const CLAIM_NEXT = CLAIM_NEXT_SELECT + NONE_IN_PROGRESS + CLAIM_END;
/** The same, for a copy that stood aside: only while the attempt it awaits has no outcome either. */
const CLAIM_NEXT_AFTER_AWAITED =
  CLAIM_NEXT_SELECT +
  `(${NONE_IN_PROGRESS} and not exists (select 1 from "callback_attempts" where ("callback_attempts"."event_id" = ? and "callback_attempts"."attempt" = ? and ` +
  '("callback_attempts"."error" is null or "callback_attempts"."error" not in (?, ?)))))' +
  CLAIM_END;
const EVENT_AND_SECRETS =
  'select "callback_events"."state" as "state", "api_keys"."signing_secret_enc" as "signingSecretEnc", ' +
  '"api_keys"."previous_signing_secret_enc" as "previousSecretEnc", "api_keys"."previous_secret_expires_at" as "previousSecretExpiresAt" ' +
  'from "callback_events" left join "api_keys" on "api_keys"."id" = ? where "callback_events"."id" = ?';
const ATTEMPTS_NEWEST_FIRST =
  'select "attempt", "error" from "callback_attempts" where "callback_attempts"."event_id" = ? order by "callback_attempts"."attempt" desc';
type EventAndSecrets = {
  state: CallbackState;
  signingSecretEnc: string | null;
  previousSecretEnc: string | null;
  previousSecretExpiresAt: string | null;
};

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
  const d1 = db.$client;
  const claim =
    awaitsAttempt === undefined
      ? prepared(d1, CLAIM_NEXT).bind(eventId, at, IN_PROGRESS, eventId, "pending", eventId, IN_PROGRESS)
      : prepared(d1, CLAIM_NEXT_AFTER_AWAITED).bind(
          eventId,
          at,
          IN_PROGRESS,
          eventId,
          "pending",
          eventId,
          IN_PROGRESS,
          eventId,
          awaitsAttempt,
          IN_PROGRESS,
          INTERRUPTED,
        );
  const [, claimedResult, eventResult, attemptsResult] = await d1.batch([
    prepared(d1, INTERRUPT_STALE).bind(INTERRUPTED, eventId, IN_PROGRESS, staleBefore),
    claim,
    prepared(d1, EVENT_AND_SECRETS).bind(keyId, eventId),
    prepared(d1, ATTEMPTS_NEWEST_FIRST).bind(eventId),
  ]);
  const claimed = claimedResult!.results as { attempt: number }[];
  const event = eventResult!.results[0] as EventAndSecrets | undefined;
  const attempts = attemptsResult!.results as { attempt: number; error: string | null }[];

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

// Every attempt's record, prepared (as the claim): the statements drizzle's builder generated for it.
const RECORD_ATTEMPT =
  'update "callback_attempts" set "at" = ?, "duration_ms" = ?, "status_code" = ?, "error" = ? where ("callback_attempts"."event_id" = ? and "callback_attempts"."attempt" = ?)';
const SETTLE_PENDING_EVENT =
  'update "callback_events" set "state" = ?, "updated_at" = ? where ("callback_events"."id" = ? and "callback_events"."state" = ?)';

/**
 * Records the outcome of a claimed attempt and the event's resulting state in one batch. Only a pending
 * event changes state: a duplicate queue delivery racing a finished one cannot turn `delivered` into `failed`.
 */
export async function recordAttempt(db: Database, record: AttemptRecord, state: CallbackState): Promise<void> {
  const d1 = db.$client;
  await d1.batch([
    prepared(d1, RECORD_ATTEMPT).bind(record.at, record.durationMs, record.statusCode, record.error, record.eventId, record.attempt),
    prepared(d1, SETTLE_PENDING_EVENT).bind(state, record.at, record.eventId, "pending"),
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
