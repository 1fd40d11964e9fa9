// Correcting the applicant's details after a refused check (docs/end-user-apps.md): a mistyped name or date of birth
// would otherwise stay with the account for good, since create-applicant answers APPLICANT_EXISTS. The
// corrected details go to the provider only; the record goes back to "documents to upload" (PENDING
// without a check), so the next check is of the corrected applicant.
import { and, eq, isNull } from "drizzle-orm";
import { kycRecords } from "../../db/schema";
import { ApiError } from "../../errors";
import { log } from "../../lib/log";
import { nowIso } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";
import { kycStatus, type CreateApplicantBody, type KycStatus } from "./kyc";

/**
 * Only a REJECTED record may change: a VERIFIED date of birth is final, a running check would be of
 * details it did not see, and a record refused because its document verifies another account stays
 * refused (new details do not make the document anyone else's).
 */
export async function correctApplicant(ctx: ServiceContext, userId: string, input: CreateApplicantBody): Promise<KycStatus> {
  const [record] = await ctx.db.select().from(kycRecords).where(eq(kycRecords.userId, userId)).limit(1);
  if (!record) throw new ApiError("APPLICANT_REQUIRED");
  if (record.status === "VERIFIED") throw new ApiError("KYC_ALREADY_VERIFIED");
  if (record.status !== "REJECTED") throw new ApiError("KYC_CHECK_PENDING");
  if (record.rejectionReason === "IDENTITY_ALREADY_VERIFIED") throw new ApiError("IDENTITY_ALREADY_VERIFIED");
  await ctx.provider.updateApplicant(record.applicantId, input);
  const written = await ctx.db
    .update(kycRecords)
    .set({ status: "PENDING", checkId: null, verifiedDob: null, verifiedAt: null, rejectionReason: null, updatedAt: nowIso() })
    // Only over the refusal read above: a submission that started a new check meanwhile keeps its check
    // (the provider already holds the corrected details either way).
    .where(
      and(
        eq(kycRecords.userId, userId),
        eq(kycRecords.status, "REJECTED"),
        isNull(kycRecords.rejectionReason),
        record.checkId === null ? isNull(kycRecords.checkId) : eq(kycRecords.checkId, record.checkId),
      ),
    )
    .returning({ userId: kycRecords.userId });
  if (written.length === 0) log("warn", "applicant corrected concurrently", { userId, provider: ctx.provider.name });
  else log("info", "applicant corrected", { userId, provider: ctx.provider.name });
  return kycStatus(ctx, userId);
}
