// Per-account limit counters whose window has ended (src/domain/limits/account-limits.ts): a later window has
// its own row, so deleting them changes no answer.
import { deleteInBatches } from "./batch-delete";

export const pruneAccountCounters = (db: D1Database, now: Date) => deleteInBatches(db, "account_counters", "expires_at <= ?", [now.toISOString()]);
