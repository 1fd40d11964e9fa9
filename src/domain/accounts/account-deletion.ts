// DELETE /api/users/account: a business's pending sessions expire and their objects forget them (the
// first ones at once, the rest through the queue, so a deletion is bounded whatever the count); then the user row goes, and D1 cascades remove its email tokens, KYC record, API keys (so they
// stop authenticating at once) and, for a business, its session log and callback events. No callback
// reaches a deleted merchant: its signing secrets are gone with its keys. Resolved sessions' objects
// forget them on their own after the retention period. The KYC record's applicant is then deleted at
// the identity provider through the queue (src/providers/applicant-deletion.ts): our deletion never
// waits for the provider.
import { and, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { kycRecords, users, verificationSessions, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { checkPassword } from "./sign-in";
import { enqueueApplicantDeletion } from "../../providers/applicant-deletion";
import type { ServiceContext } from "../../context/service-context";
import { closeSessionsOfDeletedAccount } from "../../session/closing-for-deleted-account";
import { releaseEmail } from "./account-directory";
import { releaseIdentity } from "../kyc";

export const DeleteAccountInput = z.object({
  password: z
    .optional(z.string().check(z.minLength(1), z.maxLength(128)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The account's current password. Optional when the token is from a sign-in of the last 10 minutes (the request may then have no body, as in 1.1.0)."
          : "",
      ),
    ),
});

/** How recent a sign-in stands for the password (docs/security-privacy.md): a stolen token of the morning cannot delete. */
export const FRESH_SIGN_IN_SECONDS = 600;

/**
 * `signedInAt`: when the presented token was issued (its `iat`, Unix seconds). A deletion needs the
 * password, or a token issued by a sign-in within FRESH_SIGN_IN_SECONDS: either way the person proved
 * they know a credential moments ago, which a token lifted from a browser hours ago does not.
 */
export async function deleteAccount(
  ctx: ServiceContext,
  user: UserRow,
  confirmation: { password?: string; signedInAt: number },
): Promise<void> {
  const { db } = ctx;
  if (!user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED");
  if (confirmation.password !== undefined) {
    if (!(await checkPassword(ctx, user, confirmation.password)))
      throw new ApiError("INVALID_CREDENTIALS", { message: "That is not the account's password." });
  } else if (Date.now() / 1000 - confirmation.signedInAt > FRESH_SIGN_IN_SECONDS) {
    throw new ApiError("INVALID_CREDENTIALS", {
      message: 'Deleting the account needs its password: send {"password"}, or sign in again and delete within 10 minutes.',
    });
  }
  if (user.userType === "BUSINESS") {
    const pending = await db
      .select({ id: verificationSessions.id })
      .from(verificationSessions)
      .where(and(eq(verificationSessions.accountId, user.id), eq(verificationSessions.status, "PENDING")));
    // Bounded: the first ones here, the rest through the queue (src/session/closing-for-deleted-account.ts).
    await closeSessionsOfDeletedAccount(
      ctx,
      pending.map(({ id }) => id),
    );
  }
  const kyc = await db
    .select({ applicantId: kycRecords.applicantId, fingerprint: kycRecords.identityFingerprint })
    .from(kycRecords)
    .where(eq(kycRecords.userId, user.id))
    .get();
  await db.delete(users).where(eq(users.id, user.id));
  // The home shard's claims on the address and the document go with the account (a failure here leaves
  // a claim with no account, which the next claimant takes over).
  await releaseEmail(ctx, user.email, user.id);
  if (kyc?.fingerprint) await releaseIdentity(ctx, kyc.fingerprint, user.id);
  if (kyc) await enqueueApplicantDeletion(ctx, kyc.applicantId);
}
