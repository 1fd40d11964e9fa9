// The spent-token store: one D1 row per spent token, its nonce's hash as the primary key, so the
// database itself refuses a second spend, atomically, from any location (the statement:
// src/db/spent-age-tokens.ts). D1 rather than a Durable Object: one global uniqueness check needs one
// place (a Durable Object would be a single hot object or a sharding scheme), D1 is already on the
// redemption's path, and pruning by key is one statement. The session's object calls the statement
// itself, inside its serialized section (docs/double-blind.md).
import { ApiError } from "../../errors";
import type { Database } from "../../db/client";
import { insertSpentAgeToken, type SpentAgeToken } from "../../db/spent-age-tokens";

/** Records the token as spent, or throws 409 AGE_TOKEN_SPENT when it already was, 422 AGE_TOKEN_INVALID when its key is retired. */
export async function spendAgeToken(db: Database, spent: SpentAgeToken): Promise<void> {
  const outcome = await insertSpentAgeToken(db, spent);
  if (outcome === "spent") throw new ApiError("AGE_TOKEN_SPENT");
  if (outcome === "retired") throw new ApiError("AGE_TOKEN_INVALID");
}
