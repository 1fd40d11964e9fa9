// POST /api/auth/register (spec endpoint 1). The address is claimed in the home shard's directory first
// (where it is unique across shards: src/domain/accounts/account-directory.ts), then the account is
// written on a shard of NEW_ACCOUNT_SHARDS, chosen at random, its id naming that shard.
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import { LOCALES, USER_TYPES, users, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { newTaggedId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { nowIso } from "../../lib/time";
import { deliverMail } from "../../mail/send-account-mail";
import { verifyEmailMail } from "../../mail/messages";
import { issueAccountToken } from "./account-tokens";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { issueEmailToken } from "./email-links";
import { isUniqueViolation } from "../../db/unique-violation";
import { EmailField, NameField, PasswordField, toUser } from "./users";
import { claimEmail, releaseEmail } from "./account-directory";
import type { Settings } from "../../config/settings";

/** A shard that takes new accounts, at random (NEW_ACCOUNT_SHARDS; default every shard). */
export function newAccountShard(settings: Settings): number {
  const open = settings.shards.newAccountShards;
  return open[crypto.getRandomValues(new Uint32Array(1))[0]! % open.length]!;
}

export const RegisterInput = z
  .object({
    email: EmailField,
    password: PasswordField,
    firstName: z.optional(NameField),
    lastName: z.optional(NameField),
    userType: z.enum(USER_TYPES),
    companyName: z.optional(NameField),
    locale: z
      .optional(z.enum(LOCALES))
      .check(z.describe(OPENAPI_METADATA ? "The language of the account's mails (the end user's pages send theirs); default en" : "")),
  })
  .check(
    z.superRefine((input, ctx) => {
      if (input.userType === "BUSINESS" && !input.companyName) {
        ctx.addIssue({ code: "custom", path: ["companyName"], message: "A business account needs a company name." });
      }
    }),
  );
export type RegisterInput = z.infer<typeof RegisterInput>;

export const emailTaken = () => new ApiError("EMAIL_TAKEN");

export async function register(root: ServiceContext, input: RegisterInput) {
  const shard = newAccountShard(root.settings);
  const id = await newTaggedId("usr", shard);
  const ctx = root.onShard(shard);
  const now = nowIso();
  const row: UserRow = {
    id,
    email: input.email,
    passwordHash: await hashPassword(input.password, secret(ctx.settings, "PASSWORD_PEPPER")),
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    companyName: input.userType === "BUSINESS" ? (input.companyName ?? null) : null,
    userType: input.userType,
    emailVerified: false,
    tokenVersion: 0,
    locale: input.locale ?? "en",
    createdAt: now,
    updatedAt: now,
  };
  // The password is hashed first (the slow part), so the claim and the account are written back to back.
  if (!(await claimEmail(ctx, row.email, id))) throw emailTaken();
  try {
    await ctx.db.insert(users).values(row);
  } catch (error) {
    await releaseEmail(ctx, row.email, row.id);
    if (isUniqueViolation(error)) throw emailTaken(); // the shard holds the address still (an account from before the directory)
    throw error;
  }
  const verifyToken = await issueEmailToken(ctx, row.id, "verify");
  await deliverMail(ctx, verifyEmailMail(mailLinkBase(ctx), row.email, verifyToken, row.locale), "verify-email");
  return { user: toUser(row), token: await issueAccountToken(ctx, row) };
}
