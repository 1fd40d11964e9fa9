// Which shard holds a provider applicant's KYC record (docs/operations.md): the provider's webhook names the check,
// whose applicant is all it says about the account, and an applicant id is the provider's to mint, so it
// cannot carry a shard tag. A row on the home shard, written when the applicant is created, answers it
// in one read; an applicant with no row was created before sharding, when every record was on shard 0.
import { eq } from "drizzle-orm";
import { applicantShards } from "../../db/schema";
import { bounded, chosenShard } from "../../context/shard-routing";
import type { ServiceContext } from "../../context/service-context";

/** Records that the context's shard holds this applicant's record (before the record is written). */
export const recordApplicantShard = (ctx: ServiceContext, applicantId: string) =>
  ctx.home
    .insert(applicantShards)
    .values({ applicantId, shard: chosenShard(ctx) })
    .onConflictDoNothing();

/** Forgets an applicant whose record was never written (a concurrent creation won). */
export const forgetApplicantShard = (ctx: ServiceContext, applicantId: string) =>
  ctx.home.delete(applicantShards).where(eq(applicantShards.applicantId, applicantId));

/** The context on the shard of the applicant's record. */
export async function onApplicantShard(ctx: ServiceContext, applicantId: string): Promise<ServiceContext> {
  const [row] = await ctx.home
    .select({ shard: applicantShards.shard })
    .from(applicantShards)
    .where(eq(applicantShards.applicantId, applicantId))
    .limit(1);
  return ctx.onShard(bounded(ctx, row?.shard ?? 0));
}
