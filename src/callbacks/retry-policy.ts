// What happens after one delivery attempt (docs/api-contract.md §Callbacks), as a pure function of its outcome: no clock,
// no randomness of its own (both are passed in), so every branch is testable without waiting.

/**
 * The Standard Webhooks schedule: the wait before attempt n+1, counted from attempt n. Attempt 1 goes
 * out immediately on resolution; attempt 10 is the last, about three days later.
 */
export const RETRY_SCHEDULE_SECONDS = [0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 14 * 3600, 20 * 3600, 24 * 3600] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length;

/** A queue message can be delayed by at most 12 hours; a longer wait is taken in steps. */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 3600;
/**
 * A receiver's Retry-After is honoured as a minimum wait, up to the longest scheduled wait, so it cannot
 * park an event for ever.
 */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;
/** Jitter only ever delays (up to 10 % of the wait): a retry never comes earlier than the schedule says. */
const JITTER_FRACTION = 0.1;

/** refused_address: the host is or resolved to a non-public address (src/callbacks/callback-host.ts). */
export type ErrorKind = "timeout" | "network_error" | "refused_address";

export type AttemptOutcome = { kind: "response"; status: number; retryAfter?: string | null } | { kind: "error"; error: ErrorKind };

export type Decision =
  | { action: "delivered" }
  | { action: "retry"; waitSeconds: number }
  | { action: "give_up"; reason: "gone" | "attempts_exhausted" | "single_attempt" };

/** The jittered wait after failed attempt `attempt` (1-based); `random` is in [0, 1). */
export function scheduledWaitSeconds(attempt: number, random: number): number {
  const base = RETRY_SCHEDULE_SECONDS[Math.min(Math.max(attempt, 1), MAX_ATTEMPTS - 1)]!;
  return base + Math.floor(random * base * JITTER_FRACTION);
}

/** Retry-After as delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS);
  // An HTTP date always names GMT; this keeps Date.parse from reading "-5" as a year.
  if (!/GMT$/.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(Math.ceil((date - nowMs) / 1000), 0), MAX_RETRY_AFTER_SECONDS);
}

export const isSuccess = (status: number) => status >= 200 && status < 300;

/**
 * A merchant's redelivery (POST …/callbacks/redeliver) is one attempt, sent now, off the schedule: it
 * succeeds or the event is failed again, to be redelivered again if the merchant wants (as Stripe's
 * resend). Retrying it for another day would hide the answer the merchant asked for.
 */
export const decideSingleAttempt = (outcome: AttemptOutcome): Decision =>
  outcome.kind === "response" && isSuccess(outcome.status) ? { action: "delivered" } : { action: "give_up", reason: "single_attempt" };

export function decide(outcome: AttemptOutcome, attempt: number, nowMs: number, random: number): Decision {
  if (outcome.kind === "response" && isSuccess(outcome.status)) return { action: "delivered" };
  // 410 Gone: the receiver says this endpoint will never accept it.
  if (outcome.kind === "response" && outcome.status === 410) return { action: "give_up", reason: "gone" };
  if (attempt >= MAX_ATTEMPTS) return { action: "give_up", reason: "attempts_exhausted" };
  // Everything else, 3xx included (redirects are not followed), is retried on the schedule.
  const scheduled = scheduledWaitSeconds(attempt, random);
  if (outcome.kind === "response" && (outcome.status === 429 || outcome.status === 503)) {
    // Retry-After only ever lengthens the wait: a short one (0 during a deploy, say) must not burn the
    // remaining attempts in seconds. It is capped at 24 h on parsing, so it cannot park an event for ever.
    const retryAfter = parseRetryAfter(outcome.retryAfter, nowMs);
    if (retryAfter !== null) return { action: "retry", waitSeconds: Math.max(retryAfter, scheduled) };
  }
  return { action: "retry", waitSeconds: scheduled };
}

/**
 * Back-off when processing itself failed (D1 unavailable, an undecryptable secret), from the queue's
 * delivery count of the message (`message.attempts`, 1 on the first delivery): 60 s, 2 min, 4 min, …
 * doubling up to 30 min. Every retry() counts toward the queue's max_retries (100, the most Cloudflare
 * allows), and a message still on the queue when its retention period ends (4 days by default) is
 * deleted without reaching the dead-letter queue. The cap keeps 100 retries within about two days, so
 * a message that keeps failing does reach the dead-letter queue; it also bounds how long delivery lags
 * once D1 is back.
 */
export const INTERNAL_RETRY_BASE_SECONDS = 60;
export const MAX_INTERNAL_RETRY_SECONDS = 30 * 60;

export function internalRetrySeconds(queueAttempts: number): number {
  const exponent = Math.min(Math.max(Math.floor(queueAttempts) - 1, 0), 30);
  return Math.min(INTERNAL_RETRY_BASE_SECONDS * 2 ** exponent, MAX_INTERNAL_RETRY_SECONDS);
}

/** The queue delay for one step of a wait, at most the queue's maximum. */
export const queueDelaySeconds = (waitSeconds: number) => Math.min(Math.max(Math.ceil(waitSeconds), 0), MAX_QUEUE_DELAY_SECONDS);

/** Seconds still to wait before a message carrying `notBefore` may be attempted, or 0 when it is due. */
export function remainingWaitSeconds(notBefore: string | undefined, nowMs: number): number {
  if (!notBefore) return 0;
  const due = Date.parse(notBefore);
  if (Number.isNaN(due)) return 0;
  return Math.max(Math.ceil((due - nowMs) / 1000), 0);
}
