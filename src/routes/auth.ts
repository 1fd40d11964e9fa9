// Auth area (CONTRACT §2): no credential except where requireUser says so.
import { Hono } from "hono";
import * as z from "zod";
import { confirmEmailChange, TokenInput, resendVerification, verifyEmail, ForgotPasswordInput, requestPasswordReset, resetPassword, ResetPasswordInput, register, RegisterInput, login, LoginInput, signOutEverywhere, User } from "../domain/accounts";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { clientAddress, enforceLimit, limitPerAddress } from "../http/rate-limit";
import { requireUser } from "../http/require-user";
import { accepted, ok } from "../http/respond";
import { jsonBody } from "../http/validate";

const UserAndToken = z.object({ user: User, token: z.string() });
const UserOnly = z.object({ user: User });
const tag = "Auth";
const limited = { 429: { description: "Too many attempts from this address.", codes: ["RATE_LIMITED"] } } satisfies Responses;
const badToken = { 400: { description: "The token is unknown, already used or expired.", codes: ["INVALID_TOKEN"] } } satisfies Responses;

export const authRoutes = new Hono<AppEnv>()
  .post(
    "/register",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Create a PERSONAL or BUSINESS account",
      description: "Sends a verification email. companyName is required for BUSINESS.",
      responses: { 201: { description: "Created", data: UserAndToken }, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] }, ...limited },
    }),
    limitPerAddress("register"),
    jsonBody(RegisterInput),
    async (c) => ok(c, await register(c.var.ctx, c.req.valid("json")), 201),
  )
  .post(
    "/login",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Sign in and receive an account JWT (12 hours)",
      responses: {
        200: { description: "Signed in", data: UserAndToken },
        401: { description: "Unknown email or wrong password (one answer for both)", codes: ["INVALID_CREDENTIALS"] },
        429: {
          description:
            "Too many attempts from this address (20 a minute, any emails), or for this email from this address (5 a minute). " +
            "Keyed by the pair, a stranger's attempts elsewhere cannot lock the owner out from their own address.",
          codes: ["RATE_LIMITED"],
        },
      },
    }),
    jsonBody(LoginInput),
    async (c) => {
      const input = c.req.valid("json");
      const address = clientAddress(c);
      // Per address: one client trying many emails (credential stuffing). Per (email, address): guessing
      // one account's password, without letting someone else's attempts lock its owner out.
      await enforceLimit(c.env.LOGIN_ADDRESS_LIMITER, `login:${address}`);
      await enforceLimit(c.env.LOGIN_LIMITER, `login:${input.email}:${address}`);
      return ok(c, await login(c.var.ctx, input));
    },
  )
  .post(
    "/verify-email",
    describe(OPENAPI_METADATA && { tag, summary: "Confirm the email address with the mailed token", responses: { 200: { description: "Verified", data: UserOnly }, ...badToken } }),
    jsonBody(TokenInput),
    async (c) => ok(c, { user: await verifyEmail(c.var.ctx, c.req.valid("json").token) }),
  )
  .post(
    "/resend-verification",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Mail a new verification link",
      responses: { 202: { description: "Sent" }, 409: { description: "Already verified", codes: ["ALREADY_VERIFIED"] }, 429: { description: "More than 5 mails a minute for this account.", codes: ["RATE_LIMITED"] } },
    }),
    requireUser,
    async (c) => {
      await enforceLimit(c.env.LOGIN_LIMITER, `mail:${c.var.user.id}`);
      await resendVerification(c.var.ctx, c.var.user);
      return accepted(c, "A new verification link is on its way.");
    },
  )
  .post(
    "/forgot-password",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Mail a password-reset link",
      description: "Always 202 with the same body, whether or not the address has an account; the lookup and the mail happen after the answer, so its timing does not tell either.",
      responses: { 202: { description: "Accepted" }, ...limited },
    }),
    limitPerAddress("forgot-password"),
    jsonBody(ForgotPasswordInput),
    async (c) => {
      const { email } = c.req.valid("json");
      // Per address above, and per email here, so that no one can flood one mailbox from many addresses.
      await enforceLimit(c.env.LOGIN_LIMITER, `forgot:${email}`);
      // The lookup, token and mail run after the answer (waitUntil), so an unknown address answers in
      // the same time as a known one and the timing cannot tell which addresses have accounts.
      c.executionCtx.waitUntil(requestPasswordReset(c.var.ctx, email));
      return accepted(c, "If an account uses this address, a reset link is on its way.");
    },
  )
  .post(
    "/reset-password",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Set a new password with the mailed token; signs out everywhere",
      responses: { 200: { description: "Password changed" }, ...badToken, ...limited },
    }),
    limitPerAddress("reset-password"),
    jsonBody(ResetPasswordInput),
    async (c) => {
      await resetPassword(c.var.ctx, c.req.valid("json"));
      return c.json({ success: true, message: "Password changed. Sign in with the new password." });
    },
  )
  .post(
    "/confirm-email-change",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Confirm a new email address with the token mailed to it; signs out everywhere",
      responses: { 200: { description: "Email changed", data: UserOnly }, ...badToken, 409: { description: "Email taken", codes: ["EMAIL_TAKEN"] } },
    }),
    jsonBody(TokenInput),
    async (c) => ok(c, { user: await confirmEmailChange(c.var.ctx, c.req.valid("json").token) }),
  )
  .post(
    "/logout",
    describe(OPENAPI_METADATA && { tag, summary: "Sign out everywhere: every token issued so far stops working", responses: { 204: { description: "Signed out" } } }),
    requireUser,
    async (c) => {
      await signOutEverywhere(c.var.ctx, c.var.user.id);
      return c.body(null, 204);
    },
  );
