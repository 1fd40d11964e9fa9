// The per-account daily count of issued age tokens (AGE_TOKENS_PER_DAY, docs/api-contract.md §Age tokens): one keyed-hash
// counter row per account and UTC day (src/domain/limits), raised by the number of tokens in one
// conditional UPSERT, so two concurrent calls can never together pass the limit. The row says how many,
// never which tokens: nothing issued is recorded, and nothing here could be matched to a redemption.
import { eq, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context/service-context";
import { accountCounters } from "../../db/schema";
import { counterKeys, limitOf } from "../limits";

/**
 * Adds `count` to today's count of the account's tokens when that stays within the limit. Returns null
 * when it did, else the count already issued today (nothing added), for the refusal's message.
 */
export async function countIssuedTokens(
  ctx: ServiceContext,
  accountId: string,
  count: number,
  now: number,
): Promise<{ refusedAt: number; limit: number } | null> {
  const [day] = await counterKeys(ctx.settings, "ageTokensPerAccount", accountId, now);
  const limit = limitOf(ctx.settings, day!.window);
  if (count > limit) return { refusedAt: 0, limit };
  const added = await ctx.db
    .insert(accountCounters)
    .values({ key: day!.key, count, expiresAt: day!.expiresAt })
    .onConflictDoUpdate({
      target: accountCounters.key,
      set: { count: sql`${accountCounters.count} + ${count}` },
      setWhere: sql`${accountCounters.count} + ${count} <= ${limit}`,
    })
    .returning({ count: accountCounters.count });
  if (added.length > 0) return null;
  const [row] = await ctx.db.select({ count: accountCounters.count }).from(accountCounters).where(eq(accountCounters.key, day!.key));
  return { refusedAt: row?.count ?? 0, limit };
}
