// Per-account limit counters whose window has ended (src/domain/limits/account-limits.ts): a later window has
// its own row, so deleting them changes no answer. The table has no rowid (it keeps no order of its
// rows' making: drizzle/0019_keyed_tables_without_rowid.sql), so batches are chosen by key.
import { DELETE_BATCH_ROWS, deleteInBatches, MAX_BATCHES_PER_RUN } from "./batch-delete";

export const pruneAccountCounters = (db: D1Database, now: Date) =>
  deleteInBatches(
    db,
    "account_counters",
    "expires_at <= ?",
    [now.toISOString()],
    { rows: DELETE_BATCH_ROWS, batches: MAX_BATCHES_PER_RUN },
    "key",
  );
