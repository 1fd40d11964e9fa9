// Callback events still pending long after their next attempt was due: their queue message was lost
// (`wrangler dev` keeps queued messages in memory; a D1 outage outlasted the retries; a dead-letter
// consumer gave up). Each is enqueued again by its session's Durable Object, in the callback message
// format, under its own webhook-id: the consumer counts attempts from D1 and claims each one, so a
// message that was only late, not lost, cannot cause a second delivery of the same attempt.
import { CLAIM_TTL_SECONDS } from "../callbacks/consumer";
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_SECONDS, scheduledWaitSeconds } from "../callbacks/retry-policy";
import { IN_PROGRESS } from "../callbacks/attempts";
import type { ServiceContext } from "../context/service-context";
import { sessionStub } from "../session/session-stub";
import { log } from "../lib/log";

/** Events re-enqueued per run at most. */
export const MAX_RESENDS_PER_RUN = 50;

type Candidate = {
  id: string;
  sessionId: string;
  updatedAt: string;
  attempts: number;
  lastAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
};

/** When the next attempt of an event was due at the latest, from its last recorded activity (DUE_AT_SQL below is the same rule in SQL). */
export function nextAttemptDueMs(event: Candidate): number {
  const lastActivity = Math.max(Date.parse(event.updatedAt), event.lastAt ? Date.parse(event.lastAt) : 0);
  if (event.attempts === 0) return lastActivity;
  // A claimed attempt whose holder stopped: another copy takes over once the claim expires.
  if (event.lastError === IN_PROGRESS) return lastActivity + CLAIM_TTL_SECONDS * 1000;
  // The longest the schedule could have waited after this attempt: full jitter, and a receiver's
  // Retry-After (honoured up to its cap) after a 429 or 503.
  let waitSeconds = scheduledWaitSeconds(event.attempts, 0.999_999);
  if (event.lastStatus === 429 || event.lastStatus === 503) waitSeconds = Math.max(waitSeconds, MAX_RETRY_AFTER_SECONDS);
  return lastActivity + waitSeconds * 1000;
}

export type StallResult = { resent: number; forgotten: number; more: boolean };

/** Unix seconds of an ISO time, in SQLite. */
const unixSeconds = (column: string) => `((julianday(${column}) - 2440587.5) * 86400.0)`;

/**
 * nextAttemptDueMs above, as SQL over the candidate's columns (in seconds): the sweep selects only due
 * events, so pending events that are not yet due (a merchant's failing endpoint between retries) never
 * fill a run's page and hold back another merchant's lost event.
 */
const DUE_AT_SQL = (() => {
  const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => `WHEN ${i + 1} THEN ${scheduledWaitSeconds(i + 1, 0.999_999)}`).join(" ");
  const longest = `CASE attempts ${waits} ELSE ${scheduledWaitSeconds(MAX_ATTEMPTS, 0.999_999)} END`;
  const wait = `CASE WHEN attempts = 0 THEN 0
      WHEN lastError = '${IN_PROGRESS}' THEN ${CLAIM_TTL_SECONDS}
      WHEN lastStatus IN (429, 503) THEN max(${longest}, ${MAX_RETRY_AFTER_SECONDS})
      ELSE ${longest} END`;
  return `max(${unixSeconds("updatedAt")}, coalesce(${unixSeconds("lastAt")}, 0)) + (${wait})`;
})();

export async function resendStalledCallbacks(ctx: ServiceContext, now: Date, stallSeconds: number): Promise<StallResult> {
  const { results } = await ctx.db.$client
    .prepare(
      `WITH candidates AS (
         SELECT e.id AS id, e.session_id AS sessionId, e.updated_at AS updatedAt,
           (SELECT count(*) FROM callback_attempts a WHERE a.event_id = e.id) AS attempts,
           l.at AS lastAt, l.status_code AS lastStatus, l.error AS lastError
         FROM callback_events e
         LEFT JOIN callback_attempts l ON l.event_id = e.id
           AND l.attempt = (SELECT max(attempt) FROM callback_attempts m WHERE m.event_id = e.id)
         WHERE e.state = 'pending' AND e.updated_at < ?1
       )
       SELECT * FROM candidates WHERE ${DUE_AT_SQL} + ?2 <= ?3
       ORDER BY updatedAt, id
       LIMIT ?4`,
    )
    .bind(new Date(now.getTime() - stallSeconds * 1000).toISOString(), stallSeconds, now.getTime() / 1000, MAX_RESENDS_PER_RUN + 1)
    .all<Candidate>();
  const result: StallResult = { resent: 0, forgotten: 0, more: results.length > MAX_RESENDS_PER_RUN };
  for (const event of results.slice(0, MAX_RESENDS_PER_RUN)) {
    const resent = await sessionStub(ctx, event.sessionId).resendCallback(event.id, event.attempts + 1);
    if (resent) {
      result.resent++;
      log("warn", "stalled callback event re-enqueued", { webhookId: event.id, sessionId: event.sessionId, attempt: event.attempts + 1 });
    } else {
      // Nothing holds its callback address any more: an operator closes it (docs/operations.md).
      result.forgotten++;
      log("error", "stalled callback event cannot be re-enqueued: its session is forgotten", {
        webhookId: event.id,
        sessionId: event.sessionId,
      });
    }
  }
  return result;
}
