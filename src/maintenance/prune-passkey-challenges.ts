// Passkey challenges past their few minutes: unusable (an expired challenge is refused), and an
// approval challenge names a session and an account, so it must not outlive its use (docs/passkeys.md).
import { deleteInBatches } from "./batch-delete";

export const prunePasskeyChallenges = (db: D1Database, now: Date) => deleteInBatches(db, "passkey_challenges", "expires_at < ?", [now.toISOString()]);
