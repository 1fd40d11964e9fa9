// Folds the session log into the usage rollup (usage_days: counts per account, key, UTC day and mode)
// so that usage reports outlive the raw rows (docs/capacity.md). A day is folded once, oldest first, a few days
// per run, and recorded in usage_fold (one row for the database: the last day folded). The session-log
// retention deletes only rows of folded days (src/maintenance/prune-session-log.ts), so every session is
// counted by the rollup or by the raw log, never by neither. Touches only ctx.db: with several databases
// the scheduled run calls it once per database.
//
// When a day is foldable: a session's status changes at most once, by its expiry at the latest, and
// expires_at = created_at + SESSION_TTL_SECONDS. So the sessions of day D can no longer change once the
// last one opened that day has expired: D + 1 day + the TTL. FOLD_GRACE_MS more covers an expiry alarm
// or its D1 mirror that runs late, and a TTL lowered by up to that much (sessions opened before keep
// their longer expiry). A day folded too early would miss a late change for good.
import type { ServiceContext } from "../context/service-context";
import { todayUtc } from "../lib/calendar-date";
import { DAY_MS } from "../lib/time";

/** Days folded per run: a backlog (the first run after the migration, a long outage) goes a week at a time. */
export const FOLD_DAYS_PER_RUN = 7;
/** How long after the last expiry of a day it is folded. */
export const FOLD_GRACE_MS = 60 * 60 * 1000;

export type Folded = { days: string[]; through: string | null };

const nextDay = (day: string) => todayUtc(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);

/** The newest UTC day whose sessions have all expired or resolved for FOLD_GRACE_MS at `now`. */
export const lastFoldableDay = (now: Date, sessionTtlSeconds: number) =>
  todayUtc(now.getTime() - sessionTtlSeconds * 1000 - FOLD_GRACE_MS - DAY_MS);

// Recomputes one day's rows from the raw log: running it twice writes the same counts (idempotent).
// Reads the day through sessions_created; `created_at` is ISO text, so the day's rows sort between the
// two dates. The WHERE also settles SQLite's INSERT … SELECT … ON CONFLICT parsing ambiguity.
export const FOLD_DAY = `INSERT INTO usage_days (account_id, key_id, day, livemode, approved, denied, expired, pending)
SELECT account_id, key_id, ?1, livemode,
  sum(status = 'APPROVED'), sum(status = 'DENIED'), sum(status = 'EXPIRED'), sum(status = 'PENDING')
FROM verification_sessions
WHERE created_at >= ?1 AND created_at < ?2
GROUP BY account_id, key_id, livemode
ON CONFLICT (account_id, livemode, day, key_id) DO UPDATE SET
  approved = excluded.approved, denied = excluded.denied, expired = excluded.expired, pending = excluded.pending`;

const MARK_FOLDED = `INSERT INTO usage_fold (id, folded_through) VALUES (1, ?1)
ON CONFLICT (id) DO UPDATE SET folded_through = excluded.folded_through`;

/**
 * Folds the days after the last folded one (or, the first time, from the oldest raw row's day) up to
 * the last foldable day, at most `limits.days`. Each day's rows and the mark move in one batch (one
 * transaction): a run cut short leaves no day half-counted.
 */
export async function foldUsage({ db, settings }: ServiceContext, now: Date, limits = { days: FOLD_DAYS_PER_RUN }): Promise<Folded> {
  const d1 = db.$client;
  const [mark, oldest] = await d1.batch<{ day: string | null }>([
    d1.prepare("SELECT folded_through AS day FROM usage_fold WHERE id = 1"),
    d1.prepare("SELECT substr(min(created_at), 1, 10) AS day FROM verification_sessions"),
  ]);
  const through = mark!.results[0]?.day ?? null;
  // Nothing folded and nothing to fold: the mark waits for the first session's day.
  const first = through ? nextDay(through) : oldest!.results[0]?.day;
  if (!first) return { days: [], through };
  const last = lastFoldableDay(now, settings.sessionTtlSeconds);
  const days: string[] = [];
  for (let day = first; day <= last && days.length < limits.days; day = nextDay(day)) {
    await d1.batch([d1.prepare(FOLD_DAY).bind(day, nextDay(day)), d1.prepare(MARK_FOLDED).bind(day)]);
    days.push(day);
  }
  return { days, through: days.at(-1) ?? through };
}
