// KYC (docs/api-contract.md §KYC): one applicant per account, a date of birth verified once by the provider.
// Kept: applicant id, status, the verified date of birth and times. Name and address go to the
// provider only; the typed date of birth is never stored as verified (the report's is).
import { forgetApplicantShard, onApplicantShard, recordApplicantShard } from "./applicant-shards";
import { claimIdentity, releaseIdentity } from "./identity-claims";
import { and, eq, isNull, ne, or } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { KYC_RECORD_STATUSES, kycRecords } from "../../db/schema";
import { ApiError, notFound } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { log } from "../../lib/log";
import { ALPHA3_COUNTRIES } from "../../lib/countries";
import { isCalendarDate, todayUtc, yearsBefore } from "../../lib/calendar-date";
import { nowIso } from "../../lib/time";
import { enqueueApplicantDeletion } from "../../providers/applicant-deletion";
import { sandboxCheckId, type SandboxResult } from "../../providers/sandbox";
import type { ServiceContext } from "../../context/service-context";
import type { ProviderCheck } from "../../context/identity-provider";
import { identityFingerprint } from "./identity-fingerprint";
import { isUniqueViolation } from "../../db/unique-violation";

export const MAX_AGE_YEARS = 150;

// Onfido refuses names with these characters; refusing them here gives a 422 instead of a 502.
const NAME_FORBIDDEN = /[\p{Cc}^!#$%*=<>;{}"]/u;
const name = (what: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, `${what} is required.`),
    z.maxLength(100),
    z.refine((value) => !NAME_FORBIDDEN.test(value), `${what} contains a character that is not allowed.`),
  );
const addressLine = z.string().check(
  z.trim(),
  z.minLength(1),
  z.maxLength(200),
  z.refine((value) => !/\p{Cc}/u.test(value), "Control characters are not allowed."),
);

export const CreateApplicantBody = z.object({
  firstName: name("First name"),
  lastName: name("Last name"),
  // Each check stops the rest: an empty date is "required", not also "more than 150 years ago".
  dob: z.string().check(
    z.minLength(1, { error: "The date of birth is required.", abort: true }),
    z.refine(isCalendarDate, { error: "Expected a real date as YYYY-MM-DD.", abort: true }),
    z.refine((dob) => dob < todayUtc(), "The date of birth must be in the past."),
    z.refine((dob) => dob >= yearsBefore(todayUtc(), MAX_AGE_YEARS), `The date of birth is more than ${MAX_AGE_YEARS} years ago.`),
  ),
  address: z.optional(
    z.object({
      country: z.string().check(
        z.trim(),
        z.toUpperCase(),
        z.refine((code) => ALPHA3_COUNTRIES.has(code), "Expected an ISO 3166-1 alpha-3 country code, such as GBR."),
      ),
      postcode: addressLine,
      street: z.optional(addressLine),
      town: z.optional(addressLine),
    }),
  ),
});
export type CreateApplicantBody = z.infer<typeof CreateApplicantBody>;

export const KYC_STATUSES = ["NOT_STARTED", ...KYC_RECORD_STATUSES] as const;
export const KycStatus = z.object({
  status: z.enum(KYC_STATUSES),
  verifiedAt: z.nullable(z.iso.datetime()),
  reason: z
    .optional(z.enum(["IDENTITY_ALREADY_VERIFIED"]))
    .check(
      z.describe(
        OPENAPI_METADATA ? "Only on REJECTED, when the service refused a clear check: the document already verifies another account." : "",
      ),
    ),
});
export type KycStatus = z.infer<typeof KycStatus>;

const findByUser = async ({ db }: ServiceContext, userId: string) =>
  (await db.select().from(kycRecords).where(eq(kycRecords.userId, userId)).limit(1))[0];

const applicantExists = () => new ApiError("APPLICANT_EXISTS");

export async function createApplicant(ctx: ServiceContext, userId: string, input: CreateApplicantBody) {
  // Checked before calling the provider so that a second request creates nothing there either.
  if (await findByUser(ctx, userId)) throw applicantExists();
  const provider = ctx.provider;
  const applicantId = await provider.createApplicant(input);
  // Before the record: the provider's webhook finds the record's shard from this row (applicant-shards.ts).
  await recordApplicantShard(ctx, applicantId);
  const now = nowIso();
  const inserted = await ctx.db
    .insert(kycRecords)
    .values({ userId, applicantId, status: "PENDING", createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ applicantId: kycRecords.applicantId });
  if (inserted.length === 0) {
    // A concurrent request won: the applicant this one created at the provider belongs to no record, so
    // it is deleted there (through the queue, as a deleted account's is), not left with the person's name.
    log("warn", "applicant created concurrently; deleting the unused one", { userId, provider: provider.name });
    await forgetApplicantShard(ctx, applicantId);
    await enqueueApplicantDeletion(ctx, applicantId);
    throw applicantExists();
  }
  return { applicantId };
}

async function requireApplicant(ctx: ServiceContext, userId: string) {
  const record = await findByUser(ctx, userId);
  if (!record) throw new ApiError("APPLICANT_REQUIRED");
  return record;
}

export async function createSdkToken(ctx: ServiceContext, userId: string) {
  const { applicantId } = await requireApplicant(ctx, userId);
  return { token: await ctx.provider.createSdkToken(applicantId), applicantId };
}

export async function kycStatus(ctx: ServiceContext, userId: string): Promise<KycStatus> {
  const record = await findByUser(ctx, userId);
  if (!record) return { status: "NOT_STARTED", verifiedAt: null };
  return {
    status: record.status,
    verifiedAt: record.status === "VERIFIED" ? record.verifiedAt : null,
    ...(record.status === "REJECTED" && record.rejectionReason ? { reason: record.rejectionReason } : {}),
  };
}

export type CheckOutcome = "applied" | "duplicate" | "unknown_applicant" | "already_verified" | "incomplete" | "superseded";

/**
 * The one path by which a check changes a KYC record: the provider webhook and the sandbox both end
 * here. A check already applied changes nothing (redelivery), and a VERIFIED record is final: the date
 * of birth is verified once, so a later check cannot replace the identity behind an account.
 *
 * The record's `checkId` is either the check that is running (status PENDING, set by `submitCheck`) or
 * the check that decided the status (VERIFIED or REJECTED). While one is running, the events of other
 * checks (an older one redelivered, one that lost a race to be recorded) are ignored: only the running
 * check decides.
 */
export const applyCompletedCheck = async (ctx: ServiceContext, checkId: string): Promise<CheckOutcome> =>
  applyCheck(ctx, await ctx.provider.readCheck(checkId));

/** applyCompletedCheck for the provider's webhook, which names no account: the applicant's shard first (applicant-shards.ts). */
export async function applyProviderCheck(root: ServiceContext, checkId: string): Promise<CheckOutcome> {
  const check = await root.provider.readCheck(checkId);
  return applyCheck(await onApplicantShard(root, check.applicantId), check);
}

async function applyCheck(ctx: ServiceContext, check: ProviderCheck): Promise<CheckOutcome> {
  const { db } = ctx;
  const [record] = await db.select().from(kycRecords).where(eq(kycRecords.applicantId, check.applicantId)).limit(1);
  const skipped = (outcome: CheckOutcome) => {
    log("info", "check not applied", { checkId: check.checkId, outcome });
    return outcome;
  };
  if (!record) return skipped("unknown_applicant");
  if (record.status === "VERIFIED") return skipped(record.checkId === check.checkId ? "duplicate" : "already_verified");
  const running = record.status === "PENDING" ? record.checkId : null;
  if (record.status === "REJECTED" && record.checkId === check.checkId) return skipped("duplicate");
  if (running && running !== check.checkId) return skipped("superseded");
  if (!check.complete) return skipped("incomplete");
  const verdict = await check.verdict();
  const now = nowIso();
  // One document verifies one live account: a document that already verifies another account rejects
  // this one (the first keeps working; deleting it deletes its record and frees the document). The
  // claim on the home shard makes that hold across shards (identity-claims.ts).
  const fingerprint = verdict.result === "clear" && verdict.document ? await identityFingerprint(ctx.settings, verdict.document) : null;
  const taken = async () => fingerprint !== null && !(await claimIdentity(ctx, fingerprint, record.userId));
  const unclaim = () => (fingerprint === null ? undefined : releaseIdentity(ctx, fingerprint, record.userId));
  const write = (verified: boolean) =>
    db
      .update(kycRecords)
      .set({
        status: verified ? "VERIFIED" : "REJECTED",
        verifiedDob: verified && verdict.result === "clear" ? verdict.dateOfBirth : null,
        verifiedAt: verified ? now : null,
        identityFingerprint: verified ? fingerprint : null,
        rejectionReason: verdict.result === "clear" && !verified ? "IDENTITY_ALREADY_VERIFIED" : null,
        checkId: check.checkId,
        updatedAt: now,
      })
      // Repeats the guards in the write itself, so that two deliveries racing each other (or a delivery
      // racing a new submission) apply once.
      .where(
        and(
          eq(kycRecords.userId, record.userId),
          or(
            and(eq(kycRecords.status, "PENDING"), or(isNull(kycRecords.checkId), eq(kycRecords.checkId, check.checkId))),
            and(eq(kycRecords.status, "REJECTED"), or(isNull(kycRecords.checkId), ne(kycRecords.checkId, check.checkId))),
          ),
        ),
      )
      .returning({ userId: kycRecords.userId });
  let verified = verdict.result === "clear" && !(await taken());
  let written: Awaited<ReturnType<typeof write>>;
  try {
    written = await write(verified);
  } catch (error) {
    // Two accounts verifying one document at the same moment: the unique index lets one through.
    if (!verified || !isUniqueViolation(error)) {
      if (verified) await unclaim();
      throw error;
    }
    await unclaim();
    verified = false;
    written = await write(false);
  }
  if (written.length === 0) {
    if (verified) await unclaim();
    return skipped("duplicate");
  }
  log("info", "check applied", {
    checkId: check.checkId,
    userId: record.userId,
    status: verified ? "VERIFIED" : "REJECTED",
    ...(verdict.result === "clear" && !verified ? { reason: "IDENTITY_ALREADY_VERIFIED" } : {}),
  });
  return "applied";
}

/**
 * After the provider's SDK has uploaded the document and the face, the app asks for them to be
 * checked (Onfido's classic flow: the integrator's server creates the check). Idempotent: while a check
 * is running, or once the account is VERIFIED, nothing new is started and the status is returned.
 * A REJECTED account starts a new check (a retry after new uploads).
 */
export async function submitCheck(ctx: ServiceContext, userId: string): Promise<KycStatus> {
  const record = await requireApplicant(ctx, userId);
  if (record.status === "VERIFIED" || (record.status === "PENDING" && record.checkId)) return kycStatus(ctx, userId);
  const provider = ctx.provider;
  const started = await provider.createCheck(record.applicantId);
  const now = nowIso();
  const written = await ctx.db
    .update(kycRecords)
    .set({ status: "PENDING", checkId: started.checkId, verifiedDob: null, verifiedAt: null, rejectionReason: null, updatedAt: now })
    // Only over the state read above: a concurrent submission or a webhook that got here first wins, and
    // this check's result is then ignored as superseded (or is the one that already decided).
    .where(
      and(
        eq(kycRecords.userId, userId),
        eq(kycRecords.status, record.status),
        record.checkId === null ? isNull(kycRecords.checkId) : eq(kycRecords.checkId, record.checkId),
      ),
    )
    .returning({ userId: kycRecords.userId });
  if (written.length === 0) {
    log("warn", "check submitted concurrently", { userId, checkId: started.checkId, provider: provider.name });
  } else {
    log("info", "check started", { userId, checkId: started.checkId, provider: provider.name });
    // A provider that finishes at once (the sandbox) has no webhook to wait for.
    if (started.complete) await applyCompletedCheck(ctx, started.checkId);
  }
  return kycStatus(ctx, userId);
}

/**
 * The sandbox "finishes" a check for the account's applicant, then takes the webhook's path. With
 * PROVIDER=onfido the applicant lives at Onfido: there is nothing for a sandbox to complete (404).
 */
export async function completeSandboxCheck(ctx: ServiceContext, userId: string, result: SandboxResult, documentNumber?: string) {
  if (ctx.provider.name !== "sandbox") throw notFound("Route");
  const { applicantId } = await requireApplicant(ctx, userId);
  // The check id is stored (kyc_records.check_id): it carries a digest of the simulated number, not the number.
  const documentDigest = documentNumber === undefined ? undefined : (await sha256Hex(documentNumber)).slice(0, 20).toUpperCase();
  await applyCompletedCheck(ctx, sandboxCheckId(applicantId, result, documentDigest));
  return kycStatus(ctx, userId);
}
