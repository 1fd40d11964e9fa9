// A callback event as it waits on the callback queue: everything the consumer needs to sign and deliver
// it, so delivery never reads the session again. The session's Durable Object builds it
// (src/session/callback-message.ts, whose `data` is the polled session); the consumer signs `data` as
// it is and reads none of it, so here it is opaque.
export type QueuedCallback<Data = unknown, Type extends string = string> = {
  /** webhook-id, msg_…: the same on every attempt of this event. */
  webhookId: string;
  type: Type;
  /** ISO time of the resolution: the body's `timestamp`. */
  timestamp: string;
  sessionId: string;
  /** The key whose signing secret signs the callback. */
  keyId: string;
  callbackUrl: string;
  data: Data;
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
