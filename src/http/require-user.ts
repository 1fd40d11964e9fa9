// Bearer authentication: one JWT verification and one D1 read per request; the token version in the
// JWT must match the account's, so sign-out-everywhere is immediate.
import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { secret } from "../config";
import { database } from "../db/client";
import { users } from "../db/schema";
import { ApiError, unauthorized } from "../errors";
import type { AppEnv } from "../env";
import { verifyAccountToken } from "../lib/jwt";
import { withMeta } from "./openapi-meta";

export const requireUser = withMeta(
  createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer ([A-Za-z0-9_.-]{1,2048})$/.exec(header);
    if (!match) throw unauthorized();
    const claims = await verifyAccountToken(secret(c.env, "JWT_SECRET"), match[1]!);
    if (!claims) throw unauthorized();
    const user = await database(c.env.DB).query.users.findFirst({ where: eq(users.id, claims.sub) });
    if (!user || user.tokenVersion !== claims.ver) throw unauthorized();
    c.set("user", user);
    await next();
  }),
  { security: "bearer" },
);

export const requireBusiness = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.user.userType !== "BUSINESS") {
    throw new ApiError("BUSINESS_ACCOUNT_REQUIRED", 403, "This needs a business account.");
  }
  await next();
});

export const requireVerifiedEmail = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user.emailVerified) {
    throw new ApiError("EMAIL_NOT_VERIFIED", 403, "Verify your email address first.");
  }
  await next();
});
