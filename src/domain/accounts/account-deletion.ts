// DELETE /api/users/account: a business's pending sessions expire and their objects forget them (the
// first ones at once, the rest through the queue, so a deletion is bounded whatever the count); then the user row goes, and D1 cascades remove its email tokens, KYC record, API keys (so they
// stop authenticating at once) and, for a business, its session log and callback events. No callback
// reaches a deleted merchant: its signing secrets are gone with its keys. Resolved sessions' objects
// forget them on their own after the retention period. The KYC record's applicant is then deleted at
// the identity provider through the queue (src/providers/applicant-deletion.ts): our deletion never
// waits for the provider.
import { and, eq } from "drizzle-orm";
import { kycRecords, users, verificationSessions, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { enqueueApplicantDeletion } from "../../providers/applicant-deletion";
import type { ServiceContext } from "../../context/service-context";
import { closeSessionsOfDeletedAccount } from "../../session/closing-for-deleted-account";

export async function deleteAccount(ctx: ServiceContext, user: UserRow): Promise<void> {
  const { db } = ctx;
  if (!user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED");
  if (user.userType === "BUSINESS") {
    const pending = await db
      .select({ id: verificationSessions.id })
      .from(verificationSessions)
      .where(and(eq(verificationSessions.accountId, user.id), eq(verificationSessions.status, "PENDING")));
    // Bounded: the first ones here, the rest through the queue (src/session/closing-for-deleted-account.ts).
    await closeSessionsOfDeletedAccount(ctx, pending.map(({ id }) => id));
  }
  const kyc = await db.select({ applicantId: kycRecords.applicantId }).from(kycRecords).where(eq(kycRecords.userId, user.id)).get();
  await db.delete(users).where(eq(users.id, user.id));
  if (kyc) await enqueueApplicantDeletion(ctx, kyc.applicantId);
}
