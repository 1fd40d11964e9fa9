// Email tokens that can no longer be used: expired, or used (spent, or revoked by a later link). Both
// answer the same INVALID_TOKEN as an unknown token, so deleting them changes no answer.
import { deleteInBatches } from "./batch-delete";

export const pruneEmailTokens = (db: D1Database, now: Date) =>
  deleteInBatches(db, "email_tokens", "expires_at < ? OR used_at IS NOT NULL", [now.toISOString()]);
