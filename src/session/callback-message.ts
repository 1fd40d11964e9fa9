// What the session Durable Object puts on the callback queue, in the consumer's shape
// (src/callbacks/queued-callback.ts). Built from the session's state: by the resolution itself, and
// again for an event whose message was lost.
import type { QueuedCallback } from "../callbacks/queued-callback";
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

/** A session event's queue message (src/callbacks/queued-callback.ts): its `data` is the polled session. */
export type CallbackMessage = QueuedCallback<PolledSession, CallbackEventType>;

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
