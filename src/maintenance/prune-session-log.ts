// Session log rows older than SESSION_LOG_RETENTION_DAYS, with their callback events and attempts
// (foreign keys cascade), but only rows of days the usage rollup has folded (src/maintenance/fold-usage.ts):
// a day the fold has not reached keeps its rows, so the usage reports still count them. Nothing is
// deleted before the first fold.
import { deleteInBatches } from "./batch-delete";
import { DAY_MS } from "../lib/time";

// One bound, the earlier of the two (min() of a NULL mark is NULL: nothing matches), so each batch walks
// sessions_created from its start and stops at the bound.
export const PRUNABLE = "created_at < min(?, (SELECT date(folded_through, '+1 day') FROM usage_fold WHERE id = 1))";

export const pruneSessionLog = (db: D1Database, now: Date, retentionDays: number) =>
  deleteInBatches(db, "verification_sessions", PRUNABLE, [new Date(now.getTime() - retentionDays * DAY_MS).toISOString()]);
