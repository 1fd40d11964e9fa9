// "One document, one account" across shards (docs/operations.md): each shard's KYC table has a unique index on the
// document's fingerprint, but two accounts on two shards could both verify one document. A claim on the
// home shard (fingerprint → account) is taken before a record is marked VERIFIED and released when the
// account goes. A claim whose account no longer holds the document VERIFIED (its deletion stopped before
// the release, or its write lost a race) is taken over, with a compare-and-set on the old holder.
import { and, eq } from "drizzle-orm";
import { identityClaims, kycRecords } from "../../db/schema";
import { onAccountShard } from "../../context/shard-routing";
import type { ServiceContext } from "../../context/service-context";

/** True when the account now holds the document (it claimed it, held it already, or took over a stale claim). */
export async function claimIdentity(ctx: ServiceContext, fingerprint: string, userId: string): Promise<boolean> {
  const inserted = await ctx.home
    .insert(identityClaims)
    .values({ fingerprint, userId })
    .onConflictDoNothing()
    .returning({ userId: identityClaims.userId });
  if (inserted.length === 1) return true;
  const [holder] = await ctx.home.select().from(identityClaims).where(eq(identityClaims.fingerprint, fingerprint)).limit(1);
  if (!holder) return claimIdentity(ctx, fingerprint, userId); // released in between: try again
  if (holder.userId === userId) return true;
  const { db: holderDb } = await onAccountShard(ctx, holder.userId);
  const [stillHeld] = await holderDb
    .select({ userId: kycRecords.userId })
    .from(kycRecords)
    .where(and(eq(kycRecords.userId, holder.userId), eq(kycRecords.identityFingerprint, fingerprint), eq(kycRecords.status, "VERIFIED")))
    .limit(1);
  if (stillHeld) return false;
  const taken = await ctx.home
    .update(identityClaims)
    .set({ userId })
    .where(and(eq(identityClaims.fingerprint, fingerprint), eq(identityClaims.userId, holder.userId)))
    .returning({ userId: identityClaims.userId });
  return taken.length === 1;
}

/** Frees the document, only if this account holds it (its deletion, or a verification that was not written). */
export const releaseIdentity = (ctx: ServiceContext, fingerprint: string, userId: string) =>
  ctx.home.delete(identityClaims).where(and(eq(identityClaims.fingerprint, fingerprint), eq(identityClaims.userId, userId)));
