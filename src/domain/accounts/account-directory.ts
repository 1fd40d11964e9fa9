// The email → account directory on the home shard (docs/operations.md): accounts live on many D1 shards, so the
// users table's unique email index no longer spans them all. The directory's primary key is the one
// place an address is unique across shards, and the one read that takes sign-in, forgot-password and
// an email change from an address to its account (whose id names its shard: src/context/shard-routing.ts).
// A claim is written before its account; a claim whose account was never written (a crash between the
// two writes) is taken over by the next register once it is older than ABANDONED_CLAIM_MS, so a live
// registration still between its two writes is never robbed.
import { and, eq, lt } from "drizzle-orm";
import { accountDirectory, users, type UserRow } from "../../db/schema";
import { nowIso } from "../../lib/time";
import { onAccountShard } from "../../context/shard-routing";
import type { ServiceContext } from "../../context/service-context";

/** Longer than any registration takes between its claim and its account row. */
export const ABANDONED_CLAIM_MS = 60_000;

/** Claims the address for the account id; false when another account holds it. */
export async function claimEmail(ctx: ServiceContext, email: string, userId: string): Promise<boolean> {
  const claimed = await ctx.home
    .insert(accountDirectory)
    .values({ email, userId, claimedAt: nowIso() })
    .onConflictDoNothing()
    .returning({ userId: accountDirectory.userId });
  return claimed.length === 1 || (await takeOverAbandonedClaim(ctx, email, userId));
}

/**
 * Takes over a claim whose account does not exist on its shard and that is old enough not to be a
 * registration in progress: a compare-and-set on the old holder, so two registers cannot both win.
 */
async function takeOverAbandonedClaim(ctx: ServiceContext, email: string, userId: string): Promise<boolean> {
  const [holder] = await ctx.home.select().from(accountDirectory).where(eq(accountDirectory.email, email)).limit(1);
  if (!holder || Date.now() - Date.parse(holder.claimedAt) < ABANDONED_CLAIM_MS) return false;
  const [account] = await (await onAccountShard(ctx, holder.userId)).db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, holder.userId))
    .limit(1);
  if (account) return false;
  const taken = await ctx.home
    .update(accountDirectory)
    .set({ userId, claimedAt: nowIso() })
    .where(
      and(
        eq(accountDirectory.email, email),
        eq(accountDirectory.userId, holder.userId),
        lt(accountDirectory.claimedAt, new Date(Date.now() - ABANDONED_CLAIM_MS).toISOString()),
      ),
    )
    .returning({ userId: accountDirectory.userId });
  return taken.length === 1;
}

/** Gives the address up, only if this account holds it (a deletion, a failed registration, the old address of a change). */
export const releaseEmail = (ctx: ServiceContext, email: string, userId: string) =>
  ctx.home.delete(accountDirectory).where(and(eq(accountDirectory.email, email), eq(accountDirectory.userId, userId)));

/** The id of the account that holds the address, if any: one home-shard read. */
export async function accountIdOfEmail(ctx: ServiceContext, email: string): Promise<string | undefined> {
  const [row] = await ctx.home
    .select({ userId: accountDirectory.userId })
    .from(accountDirectory)
    .where(eq(accountDirectory.email, email))
    .limit(1);
  return row?.userId;
}

/** The account with this address and the context on its shard: the directory read, then the account's own. */
export async function findAccountByEmail(root: ServiceContext, email: string): Promise<{ user: UserRow; ctx: ServiceContext } | undefined> {
  const userId = await accountIdOfEmail(root, email);
  if (!userId) return undefined;
  const ctx = await onAccountShard(root, userId);
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.email, email)))
    .limit(1);
  return user && { user, ctx };
}
