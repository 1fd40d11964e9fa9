// One spent anonymous age token (docs/double-blind.md): a row keyed by the token nonce's hash, so the
// database itself refuses a second spend, atomically, from any location. D1 rather than a Durable Object:
// one global uniqueness check needs one place, and D1 is already on the redemption's path. The session's
// Durable Object, which decides when a token is spent, runs it inside its serialized section and answers
// a second spend AGE_TOKEN_SPENT.
import type { Database } from "./client";
import { spentAgeTokens } from "./schema";

/** All a spent token leaves behind (docs/api-contract.md §Age tokens): its nonce's hash, and its key's id for pruning. */
export type SpentAgeToken = { nonceHash: string; tokenKeyId: string };

/** Records the token as spent; false when it already was (nothing written). */
export async function insertSpentAgeToken(db: Database, spent: SpentAgeToken): Promise<boolean> {
  const inserted = await db.insert(spentAgeTokens).values(spent).onConflictDoNothing().returning({ nonceHash: spentAgeTokens.nonceHash });
  return inserted.length > 0;
}
