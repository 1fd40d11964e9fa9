// Users area (CONTRACT §3), Bearer.
import { Hono } from "hono";
import * as z from "zod";
import { deleteAccount, ChangeEmailInput, ChangePasswordInput, changePassword, requestEmailChange, ProfileInput, updateProfile, toUser, User } from "../domain/accounts";
import { countAccountUse } from "../domain/limits";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { enforceLimit } from "../http/rate-limit";
import { requireUser } from "../http/require-user";
import { accepted, ok } from "../http/respond";
import { jsonBody } from "../http/validate";

const tag = "Users";
const UserOnly = z.object({ user: User });
const wrongPassword = { 401: { description: "Missing token, or the password given is wrong", codes: ["UNAUTHORIZED", "INVALID_CREDENTIALS"] } } satisfies Responses;

export const userRoutes = new Hono<AppEnv>()
  .get("/me", describe(OPENAPI_METADATA && { tag, summary: "The signed-in account", responses: { 200: { description: "The account", data: UserOnly } } }), requireUser, (c) =>
    ok(c, { user: toUser(c.var.user) }),
  )
  .patch(
    "/me",
    describe(OPENAPI_METADATA && { tag, summary: "Update names, or the company name of a business account", responses: { 200: { description: "Updated", data: UserOnly } } }),
    requireUser,
    jsonBody(ProfileInput),
    async (c) => ok(c, { user: await updateProfile(c.var.ctx, c.var.user, c.req.valid("json")) }),
  )
  .post(
    "/change-password",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Change the password (spec endpoint 6); returns a fresh token, every earlier one stops working",
      responses: {
        200: { description: "Changed", data: z.object({ token: z.string() }) },
        ...wrongPassword,
        429: { description: "Too many attempts for this account (production: 10 an hour); Retry-After says when the window ends.", codes: ["RATE_LIMITED"] },
      },
    }),
    requireUser,
    jsonBody(ChangePasswordInput),
    async (c) => {
      // Before the password check: a stolen token must not be able to guess the current password without end.
      await countAccountUse(c.var.ctx, "passwordChange", c.var.user.id);
      return ok(c, { token: await changePassword(c.var.ctx, c.var.user, c.req.valid("json")) });
    },
  )
  .post(
    "/change-email",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Start an email change: a confirmation link goes to the new address",
      responses: {
        202: { description: "Confirmation sent" },
        ...wrongPassword,
        409: { description: "Email taken", codes: ["EMAIL_TAKEN"] },
        429: { description: "More than 5 mails a minute for this account.", codes: ["RATE_LIMITED"] },
      },
    }),
    requireUser,
    jsonBody(ChangeEmailInput),
    async (c) => {
      await enforceLimit(c.env.LOGIN_LIMITER, `mail:${c.var.user.id}`);
      await requestEmailChange(c.var.ctx, c.var.user, c.req.valid("json"));
      return accepted(c, "Confirm the change with the link sent to the new address.");
    },
  )
  .delete(
    "/account",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Delete the account (spec endpoint 7); needs a verified email",
      description: "Removes personal data and the KYC record, revokes every API key at once and expires pending sessions.",
      responses: { 200: { description: "Deleted" }, 403: { description: "Email not verified", codes: ["EMAIL_NOT_VERIFIED"] } },
    }),
    requireUser,
    async (c) => {
      await deleteAccount(c.var.ctx, c.var.user);
      return c.json({ success: true, message: "Deleted" });
    },
  );
