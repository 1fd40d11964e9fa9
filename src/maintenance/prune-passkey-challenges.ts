// Passkey challenges past their few minutes: unusable (an expired challenge is refused), and an
// approval challenge names a session and an account, so it must not outlive its use (docs/passkeys.md).
// The table has no rowid (it keeps no order of its rows' making: drizzle/0019_keyed_tables_without_rowid.sql),
// so batches are chosen by the challenge's hash.
import { DELETE_BATCH_ROWS, deleteInBatches, MAX_BATCHES_PER_RUN } from "./batch-delete";

export const prunePasskeyChallenges = (db: D1Database, now: Date) =>
  deleteInBatches(
    db,
    "passkey_challenges",
    "expires_at < ?",
    [now.toISOString()],
    { rows: DELETE_BATCH_ROWS, batches: MAX_BATCHES_PER_RUN },
    "challenge_hash",
  );
