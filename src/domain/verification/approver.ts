// The end user who answers a session (POST /complete), loaded in one D1 batch: the account with its
// provider-verified date of birth and whether it holds a passkey, then the counters of the per-account
// limit the route declares (its completion limit, src/routes/verification/complete-session.ts). The
// account id and token version come from the verified JWT, so nothing waits on the read.
import { and, eq, getTableColumns, inArray, notExists, sql } from "drizzle-orm";
import { kycRecords, passkeys, users } from "../../db/schema";
import { ApiError, unauthorized } from "../../errors";
import { upsertCounter } from "../../db/account-counter";
import { counterKeys, refuseOverLimit, type AccountLimitName } from "../limits";
import type { ServiceContext } from "../../context/service-context";
import type { Answerer } from "./answer-session";


/** Only a VERIFIED record answers with its date; REJECTED ones are read for their reason. */
const decidedKyc = and(eq(kycRecords.userId, users.id), inArray(kycRecords.status, ["VERIFIED", "REJECTED"]));

/**
 * The answering account, with its completion counted: 401 for an unknown account or a token version
 * that is no longer current, 409 IDENTITY_ALREADY_VERIFIED for an account refused because its document
 * verifies another account, 429 RATE_LIMITED (with Retry-After) past the completion limits. A refused
 * account (401, 409) counts nothing: the counters are written only for the account the read accepts.
 */
/**
 * The account with its provider-verified date of birth (null unless a VERIFIED record has one), the
 * reason of a REJECTED record and whether it holds a passkey: one query, for the answer and for the
 * end user's request read (which says whether the verified age meets the request).
 */
export const accountWithVerifiedDob = (ctx: ServiceContext, userId: string) =>
  ctx.db
    .select({
      user: getTableColumns(users),
      verifiedDob: sql<string | null>`case when ${kycRecords.status} = 'VERIFIED' then ${kycRecords.verifiedDob} end`,
      rejectionReason: kycRecords.rejectionReason,
      hasPasskey: sql<number>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id})`,
    })
    .from(users)
    .leftJoin(kycRecords, decidedKyc)
    .where(eq(users.id, userId))
    .limit(1);

export async function loadAnswerer(ctx: ServiceContext, claims: { sub: string; ver: number }, limit: AccountLimitName, now = Date.now()): Promise<Answerer> {
  const read = accountWithVerifiedDob(ctx, claims.sub);
  // The same acceptance as the checks below, in SQL, so a refused request changes nothing.
  const accepted = and(
    eq(users.id, claims.sub),
    eq(users.tokenVersion, claims.ver),
    notExists(ctx.db.select({ one: sql`1` }).from(kycRecords).where(and(decidedKyc, eq(kycRecords.rejectionReason, "IDENTITY_ALREADY_VERIFIED")))),
  );
  const windows = await counterKeys(ctx.settings, limit, claims.sub, now);
  const [first, ...rest] = windows.map((window) => upsertCounter(ctx.db, window, accepted));
  const [[row], ...counts] = await ctx.db.batch([read, first!, ...rest]);
  if (!row || row.user.tokenVersion !== claims.ver) throw unauthorized();
  // An account refused because its document verifies another account gets that reason, not KYC_REQUIRED.
  if (row.rejectionReason === "IDENTITY_ALREADY_VERIFIED") throw new ApiError("IDENTITY_ALREADY_VERIFIED");
  refuseOverLimit(ctx.settings, windows, counts, now);
  // verifiedDob is read only from a VERIFIED record, so a REJECTED one reads as null (the session answers KYC_REQUIRED).
  return { userId: claims.sub, dateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
}
