// The end user who answers a session (POST /complete), loaded in one D1 batch: the account with its
// provider-verified date of birth and whether it holds a passkey, then the counters of the per-account
// limit the route declares (its completion limit, src/routes/verification/complete-session.ts). The
// account id and token version come from the verified JWT, so nothing waits on the read.
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import { kycRecords, passkeys, users } from "../../db/schema";
import { ApiError, unauthorized } from "../../errors";
import { prepared } from "../../db/prepared";
import { counterKeys, refuseOverLimit, type AccountLimitName } from "../limits";
import type { ServiceContext } from "../../context/service-context";
import type { Answerer } from "./answer-session";

/** Only a VERIFIED record answers with its date; REJECTED ones are read for their reason. A function, so
 * that the tables are built on first use (src/db/schema.ts). */
const decidedKyc = () => and(eq(kycRecords.userId, users.id), inArray(kycRecords.status, ["VERIFIED", "REJECTED"]));

/**
 * The account with its provider-verified date of birth (null unless a VERIFIED record has one), the
 * reason of a REJECTED record and whether it holds a passkey: one query, for the signed-in end user's
 * request read (which says whether the verified age meets the request) and the age-token issuance. The
 * answer's own read (below) is the same query, prepared.
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
    .leftJoin(kycRecords, decidedKyc())
    .where(eq(users.id, userId))
    .limit(1);

// The answer's one D1 batch, in D1's own prepared statements (src/db/prepared.ts): drizzle's builder
// cost every completion some 200 µs of CPU assembling it (docs/performance.md). The texts are the
// builder's for the same read (the four values of accountWithVerifiedDob this needs) and the same
// conditional counter; the completion, limit, passkey and sign-out tests check what they read and count.
/** The answering account: its token version, the date of a VERIFIED record, the reason of a REJECTED one, whether it holds a passkey. */
const ANSWERING_ACCOUNT =
  "SELECT users.token_version, CASE WHEN kyc_records.status = 'VERIFIED' THEN kyc_records.verified_dob END AS verified_dob, kyc_records.rejection_reason, " +
  "EXISTS (SELECT 1 FROM passkeys WHERE passkeys.user_id = users.id) AS has_passkey " +
  "FROM users LEFT JOIN kyc_records ON (kyc_records.user_id = users.id AND kyc_records.status IN ('VERIFIED', 'REJECTED')) WHERE users.id = ? LIMIT 1";
/**
 * One completion counted, only for an account the read accepts (the same acceptance as loadAnswerer's
 * checks, in SQL, so that a refused request changes nothing): the account exists, the token's version is
 * current, and no record refuses it because its document verifies another account. The new count, or no row.
 */
const COUNT_IF_ANSWERABLE =
  "INSERT INTO account_counters (key, count, expires_at) SELECT ?, 1, ? FROM users WHERE users.id = ? AND users.token_version = ? AND NOT EXISTS " +
  "(SELECT 1 FROM kyc_records WHERE kyc_records.user_id = users.id AND kyc_records.status IN ('VERIFIED', 'REJECTED') AND kyc_records.rejection_reason = 'IDENTITY_ALREADY_VERIFIED') " +
  "ON CONFLICT (key) DO UPDATE SET count = account_counters.count + 1 RETURNING count";

type AnsweringAccount = { token_version: number; verified_dob: string | null; rejection_reason: string | null; has_passkey: number };

/**
 * The answering account, with its completion counted: 401 for an unknown account or a token version
 * that is no longer current, 409 IDENTITY_ALREADY_VERIFIED for an account refused because its document
 * verifies another account, 429 RATE_LIMITED (with Retry-After) past the completion limits. A refused
 * account (401, 409) counts nothing: the counters are written only for the account the read accepts.
 */
export async function loadAnswerer(
  ctx: ServiceContext,
  claims: { sub: string; ver: number },
  limit: AccountLimitName,
  now = Date.now(),
): Promise<Answerer> {
  const d1 = ctx.db.$client;
  const windows = await counterKeys(ctx.settings, limit, claims.sub, now);
  const [read, ...counts] = await d1.batch([
    prepared(d1, ANSWERING_ACCOUNT).bind(claims.sub),
    ...windows.map((window) => prepared(d1, COUNT_IF_ANSWERABLE).bind(window.key, window.expiresAt, claims.sub, claims.ver)),
  ]);
  const row = read!.results[0] as AnsweringAccount | undefined;
  if (!row || row.token_version !== claims.ver) throw unauthorized();
  // An account refused because its document verifies another account gets that reason, not KYC_REQUIRED.
  if (row.rejection_reason === "IDENTITY_ALREADY_VERIFIED") throw new ApiError("IDENTITY_ALREADY_VERIFIED");
  refuseOverLimit(
    ctx.settings,
    windows,
    counts.map((count) => count.results as { count: number }[]),
    now,
  );
  // verified_dob is read only from a VERIFIED record, so a REJECTED one reads as null (the session answers KYC_REQUIRED).
  return { userId: claims.sub, dateOfBirth: row.verified_dob ?? null, hasPasskey: Boolean(row.has_passkey) };
}
