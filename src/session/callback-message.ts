// What the session Durable Object puts on the callback queue: everything the consumer needs to sign
// and deliver one event, so delivery never reads the session again. Built from the session's state: by
// the resolution itself, and again for an event whose message was lost.
import { nowIso } from "../lib/time";
import { polledView, type PolledSession } from "./session-view";
import type { SessionState } from "./state-machine";
import type { ResolvedStatus } from "./session-status";

export type CallbackEventType =
  | "age_verification.session.approved"
  | "age_verification.session.denied"
  | "age_verification.session.expired";

export const eventTypeFor = (status: ResolvedStatus): CallbackEventType =>
  `age_verification.session.${status.toLowerCase() as "approved" | "denied" | "expired"}`;

export type CallbackMessage = {
  /** webhook-id, msg_…: the same on every attempt of this event. */
  webhookId: string;
  type: CallbackEventType;
  /** ISO time of the resolution: the body's `timestamp`. */
  timestamp: string;
  sessionId: string;
  /** The key whose signing secret signs the callback. */
  keyId: string;
  callbackUrl: string;
  data: PolledSession;
  /** 1 for the first attempt; the consumer increments it when it schedules a retry. */
  attempt: number;
  /**
   * ISO time before which the consumer must not attempt: set on a message the consumer re-sends for a
   * wait longer than the queue's 12-hour maximum delay, which is then taken in steps.
   */
  notBefore?: string;
  /**
   * Set on a message the consumer sends when it could not claim an attempt because another copy held
   * it: the attempt this copy stands aside for. Once that attempt has an outcome its holder carries the
   * event on and this copy is dropped; if it is still in progress, its holder stopped and this copy
   * takes over.
   */
  awaitsAttempt?: number;
  /**
   * Set on a merchant's redelivery (POST /api/usage/sessions/{id}/callbacks/redeliver): one attempt of
   * the same event, now, off the retry schedule (src/callbacks/retry-policy.ts, decideSingleAttempt).
   */
  redelivery?: true;
  /** The D1 shard of the session's merchant (docs/operations.md); absent in messages sent before sharding: shard 0. */
  shard?: number;
};


export function callbackMessage(state: SessionState, webhookId: string, attempt: number): CallbackMessage {
  if (state.status === "PENDING") throw new Error("a pending session has no callback");
  return {
    webhookId,
    type: eventTypeFor(state.status),
    timestamp: state.resolvedAt ?? nowIso(),
    sessionId: state.id,
    keyId: state.keyId,
    callbackUrl: state.callbackUrl,
    data: polledView(state),
    attempt,
    shard: state.shard ?? 0,
  };
}

/**
 * How long the queue's copy of a resolution's callback waits: past the consumer's claim lifetime (60 s,
 * src/callbacks/consumer.ts CLAIM_TTL_SECONDS; test/callbacks/first-attempt.test.ts compares), so that an
 * attempt cut off mid-way counts as interrupted by the time the copy looks.
 */
export const SAFETY_NET_DELAY_SECONDS = 90;

/**
 * The queue's copy of a resolution's callback, beside the first attempt made at once: it waits for
 * attempt 1 and is dropped once that attempt has an outcome (whoever made it carried the event on); if
 * attempt 1 never started or was cut off, the copy delivers.
 */
export const safetyNetMessage = (message: CallbackMessage): CallbackMessage => ({ ...message, awaitsAttempt: 1 });
