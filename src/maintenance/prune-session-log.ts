// Session log rows older than SESSION_LOG_RETENTION_DAYS, with their callback events and attempts
// (foreign keys cascade). Usage reports cover what remains.
import { deleteInBatches } from "./batch-delete";
import { DAY_MS } from "./periods";

export const pruneSessionLog = (db: D1Database, now: Date, retentionDays: number) =>
  deleteInBatches(db, "verification_sessions", "created_at < ?", [new Date(now.getTime() - retentionDays * DAY_MS).toISOString()]);
