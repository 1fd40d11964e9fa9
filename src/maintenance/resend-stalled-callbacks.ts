// Callback events still pending long after their next attempt was due: their queue message was lost
// (`wrangler dev` keeps queued messages in memory; a D1 outage outlasted the retries; a dead-letter
// consumer gave up). Each is enqueued again by its session's Durable Object, in the callback message
// format, under its own webhook-id: the consumer counts attempts from D1 and claims each one, so a
// message that was only late, not lost, cannot cause a second delivery of the same attempt.
import { CLAIM_TTL_SECONDS } from "../callbacks/consumer";
import { MAX_RETRY_AFTER_SECONDS, scheduledWaitSeconds } from "../callbacks/retry-policy";
import { IN_PROGRESS } from "../callbacks/attempts";
import type { ServiceContext } from "../context/service-context";
import { sessionStub } from "../session/session-stub";
import { log } from "../lib/log";

/** Events looked at per run, and re-enqueued per run at most. */
export const STALL_SCAN_ROWS = 200;
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

/** When the next attempt of an event was due at the latest, from its last recorded activity. */
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

export async function resendStalledCallbacks(ctx: ServiceContext, now: Date, stallSeconds: number): Promise<StallResult> {
  const { results } = await ctx.db.$client.prepare(
    `SELECT e.id AS id, e.session_id AS sessionId, e.updated_at AS updatedAt,
       (SELECT count(*) FROM callback_attempts a WHERE a.event_id = e.id) AS attempts,
       l.at AS lastAt, l.status_code AS lastStatus, l.error AS lastError
     FROM callback_events e
     LEFT JOIN callback_attempts l ON l.event_id = e.id
       AND l.attempt = (SELECT max(attempt) FROM callback_attempts m WHERE m.event_id = e.id)
     WHERE e.state = 'pending' AND e.updated_at < ?
     ORDER BY e.updated_at, e.id
     LIMIT ?`,
  )
    .bind(new Date(now.getTime() - stallSeconds * 1000).toISOString(), STALL_SCAN_ROWS)
    .all<Candidate>();
  const result: StallResult = { resent: 0, forgotten: 0, more: results.length === STALL_SCAN_ROWS };
  for (const event of results) {
    if (now.getTime() < nextAttemptDueMs(event) + stallSeconds * 1000) continue;
    if (result.resent >= MAX_RESENDS_PER_RUN) {
      result.more = true;
      break;
    }
    const resent = await sessionStub(ctx, event.sessionId).resendCallback(event.id, event.attempts + 1);
    if (resent) {
      result.resent++;
      log("warn", "stalled callback event re-enqueued", { webhookId: event.id, sessionId: event.sessionId, attempt: event.attempts + 1 });
    } else {
      // Nothing holds its callback address any more: an operator closes it (docs/operations.md).
      result.forgotten++;
      log("error", "stalled callback event cannot be re-enqueued: its session is forgotten", { webhookId: event.id, sessionId: event.sessionId });
    }
  }
  return result;
}
