// Idempotency-Key records past their 24 hours (src/domain/verification/idempotency.ts): a retry after that is a new
// request anyway (the claim takes an expired record over), so deleting them changes no answer.
import { deleteInBatches } from "./batch-delete";

export const pruneIdempotencyKeys = (db: D1Database, now: Date) =>
  deleteInBatches(db, "idempotency_keys", "expires_at <= ?", [now.toISOString()]);
