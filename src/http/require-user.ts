// Bearer authentication: one JWT verification and one D1 read per request; the token version in the
// JWT must match the account's, so sign-out-everywhere is immediate. The JWT's sub, the account id,
// names the account's shard (src/context/shard-routing.ts): the request's context moves there first.
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { users, type UserRow } from "../db/schema";
import { ApiError, unauthorized } from "../errors";
import type { AppEnv } from "./app-env";
import { verifyAccountTokenAnyVersion } from "../config/secret-versions";
import { accountWithVerifiedDob } from "../domain/verification";
import { withMeta } from "./openapi-meta";
import { onAccountShard } from "../context/shard-routing";

/** The account id the presented JWT names, once its signature, issuer, audience and expiry check out; the context moves to its shard. */
async function verifiedClaims(c: Context<AppEnv>) {
  // The scheme name is case-insensitive (RFC 9110 §11.1).
  const match = /^Bearer ([A-Za-z0-9_.-]{1,2048})$/i.exec(c.req.header("authorization") ?? "");
  const claims = match ? await verifyAccountTokenAnyVersion(c.var.ctx.settings, match[1]!) : null;
  if (!claims) throw unauthorized();
  c.set("ctx", await onAccountShard(c.var.ctx, claims.sub));
  return claims;
}

function acceptUser(c: Context<AppEnv>, user: UserRow | undefined, tokenVersion: number): void {
  if (!user || user.tokenVersion !== tokenVersion) throw unauthorized();
  c.set("user", user);
}

export const requireUser = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await verifiedClaims(c);
    const [user] = await c.var.ctx.db.select().from(users).where(eq(users.id, claims.sub)).limit(1);
    acceptUser(c, user, claims.ver);
    // When the token was issued: account deletion takes a recent sign-in for the password.
    c.set("accountClaims", claims);
    await next();
  }),
  { security: "bearer" },
);

/**
 * The Bearer check alone, for the end user's completion: the verified JWT's claims, no D1 read. The
 * handler validates its input first (an invalid request counts nothing), then reads the account in the
 * same D1 batch as its completion counters (src/domain/verification/answerer.ts): one D1 round trip and one Durable
 * Object call. A request refused before that read (validation, or any check a later change puts first)
 * never reaches it, so on that error path alone the account is read here: a token that no longer names
 * a current account is 401 whatever else is wrong, as on every Bearer route.
 */
export const requireAccountToken = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await verifiedClaims(c);
    c.set("accountClaims", claims);
    await next();
    if (c.error && !c.get("accountChecked")) {
      const [user] = await c.var.ctx.db.select({ tokenVersion: users.tokenVersion }).from(users).where(eq(users.id, claims.sub)).limit(1);
      if (!user || user.tokenVersion !== claims.ver) throw unauthorized();
    }
  }),
  { security: "bearer" },
);

/**
 * requireUser for the end user's request read, in the same one D1 read: the account and its verified
 * date of birth, so the read can say whether it meets the request. It refuses nobody a valid sign-in:
 * a refused identity reads as unverified.
 */
export const requireUserReadingVerifiedDob = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await verifiedClaims(c);
    const [row] = await accountWithVerifiedDob(c.var.ctx, claims.sub);
    acceptUser(c, row?.user, claims.ver);
    c.set("verifiedDob", row?.verifiedDob ?? null);
    await next();
  }),
  { security: "bearer" },
);

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
