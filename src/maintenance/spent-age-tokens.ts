// Spent age-token records whose key is no longer published: such a token is refused as unknown
// anyway, so its record guards nothing (docs/api-contract.md §Age tokens: kept while its key is published). Run by the
// scheduled handler (run.ts) with the ids of the keys it loaded (publishedKeyIds in domain/age-tokens).
import { deleteInBatches, type Pruned } from "./batch-delete";

/**
 * An empty list deletes nothing: a setting that failed to load must never wipe every record, or
 * restoring it would make every spent token spendable again.
 */
export async function pruneSpentAgeTokens(db: D1Database, publishedKeyIds: readonly string[]): Promise<Pruned> {
  if (publishedKeyIds.length === 0) return { deleted: 0, more: false };
  return deleteInBatches(db, "spent_age_tokens", "token_key_id NOT IN (SELECT value FROM json_each(?))", [JSON.stringify(publishedKeyIds)]);
}
