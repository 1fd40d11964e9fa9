// One spent anonymous age token (docs/double-blind.md): a row keyed by the token nonce's hash, so the
// database itself refuses a second spend, atomically, from any location. D1 rather than a Durable Object:
// one global uniqueness check needs one place, and D1 is already on the redemption's path. The session's
// Durable Object, which decides when a token is spent, runs it inside its serialized section and answers
// a second spend AGE_TOKEN_SPENT.
// A key recorded as retired (retired_token_keys) spends nothing: once its grace has passed its records
// are pruned, so were it published again its tokens, spent or not, could approve a second time.
import type { Database } from "./client";

/** All a spent token leaves behind (docs/api-contract.md §Age tokens): its nonce's hash, and its key's id for pruning. */
export type SpentAgeToken = { nonceHash: string; tokenKeyId: string };

/** What a spend did: recorded it, found it spent already, or refused it for its retired key (nothing written either way). */
export type SpendOutcome = "recorded" | "spent" | "retired";

/** Records the token as spent unless it already was or its key is recorded as retired; one round trip. */
export async function insertSpentAgeToken(db: Database, spent: SpentAgeToken): Promise<SpendOutcome> {
  const d1 = db.$client;
  const [inserted, retired] = await d1.batch<{ nonce_hash?: string; retired?: number }>([
    d1
      .prepare(
        "INSERT INTO spent_age_tokens (nonce_hash, token_key_id) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM retired_token_keys WHERE token_key_id = ?2) " +
          "ON CONFLICT DO NOTHING RETURNING nonce_hash",
      )
      .bind(spent.nonceHash, spent.tokenKeyId),
    d1.prepare("SELECT 1 AS retired FROM retired_token_keys WHERE token_key_id = ?").bind(spent.tokenKeyId),
  ]);
  if ((inserted?.results.length ?? 0) > 0) return "recorded";
  return (retired?.results.length ?? 0) > 0 ? "retired" : "spent";
}
