// Bearer authentication: one JWT verification and one D1 read per request; the token version in the
// JWT must match the account's, so sign-out-everywhere is immediate.
import { and, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { kycRecords, passkeys, users } from "../db/schema";
import { ApiError, unauthorized } from "../errors";
import type { AppEnv } from "./app-env";
import type { UserRow } from "../db/schema";
import { verifyAccountTokenAnyVersion } from "../secret-versions";
import { withMeta } from "./openapi-meta";

/** The account id the presented JWT names, once its signature, issuer, audience and expiry check out. */
async function verifiedClaims(c: Context<AppEnv>) {
  // The scheme name is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer ([A-Za-z0-9_.-]{1,2048})$/i.exec(c.req.header("authorization") ?? "");
  const claims = match ? await verifyAccountTokenAnyVersion(c.env, match[1]!) : null;
  if (!claims) throw unauthorized();
  return claims;
}

function acceptUser(c: Context<AppEnv>, user: UserRow | undefined, tokenVersion: number): void {
  if (!user || user.tokenVersion !== tokenVersion) throw unauthorized();
  c.set("user", user);
}

export const requireUser = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await verifiedClaims(c);
    const user = await c.var.ctx.db.query.users.findFirst({ where: eq(users.id, claims.sub) });
    acceptUser(c, user, claims.ver);
    await next();
  }),
  { security: "bearer" },
);

/**
 * requireUser for the end user's completion: the account, its provider-verified date of birth and
 * whether it holds a passkey in the same D1 read, so answering a session costs one query and one Durable Object call.
 */
const userWithVerifiedDob = (refuseDuplicateIdentity: boolean) => withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await verifiedClaims(c);
    const [row] = await c.var.ctx.db
      .select({
        user: getTableColumns(users),
        // Only a VERIFIED record answers with its date; the join also reads REJECTED ones for their reason.
        verifiedDob: sql<string | null>`case when ${kycRecords.status} = 'VERIFIED' then ${kycRecords.verifiedDob} end`,
        rejectionReason: kycRecords.rejectionReason,
        hasPasskey: sql<number>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${users.id})`,
      })
      .from(users)
      .leftJoin(kycRecords, and(eq(kycRecords.userId, users.id), inArray(kycRecords.status, ["VERIFIED", "REJECTED"])))
      .where(eq(users.id, claims.sub))
      .limit(1);
    acceptUser(c, row?.user, claims.ver);
    // An account refused because its document verifies another account gets that reason, not KYC_REQUIRED.
    if (refuseDuplicateIdentity && row?.rejectionReason === "IDENTITY_ALREADY_VERIFIED") throw new ApiError("IDENTITY_ALREADY_VERIFIED");
    // verifiedDob is read only from a VERIFIED record (the select above), so a REJECTED one reads as null.
    c.set("verifiedDob", row?.verifiedDob ?? null);
    c.set("hasPasskey", Boolean(row?.hasPasskey));
    await next();
  }),
  { security: "bearer" },
);
export const requireUserWithVerifiedDob = userWithVerifiedDob(true);
/** The same one read for the end user's request read, which refuses nobody: a refused identity reads as unverified. */
export const requireUserReadingVerifiedDob = userWithVerifiedDob(false);

export const requireBusiness = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user.userType !== "BUSINESS") {
    throw new ApiError("BUSINESS_ACCOUNT_REQUIRED");
  }
  await next();
});

export const requireVerifiedEmail = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.emailVerified) {
    throw new ApiError("EMAIL_NOT_VERIFIED");
  }
  await next();
});
