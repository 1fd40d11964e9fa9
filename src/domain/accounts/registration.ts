// POST /api/auth/register (spec endpoint 1).
import * as z from "zod";
import { secret } from "../../config/settings";
import { LOCALES, USER_TYPES, users, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/password";
import { nowIso } from "../../lib/time";
import { deliverMail } from "../../mail/send-account-mail";
import { verifyEmailMail } from "../../mail/messages";
import { issueAccountToken } from "./account-tokens";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { issueEmailToken } from "./email-links";
import { isUniqueViolation } from "../../db/unique-violation";
import { EmailField, findUserByEmail, NameField, PasswordField, toUser } from "./users";

export const RegisterInput = z
  .object({
    email: EmailField,
    password: PasswordField,
    firstName: NameField.optional(),
    lastName: NameField.optional(),
    userType: z.enum(USER_TYPES),
    companyName: NameField.optional(),
    locale: z.enum(LOCALES).optional().describe("The language of the account's mails (the end user's pages send theirs); default en"),
  })
  .superRefine((input, ctx) => {
    if (input.userType === "BUSINESS" && !input.companyName) {
      ctx.addIssue({ code: "custom", path: ["companyName"], message: "A business account needs a company name." });
    }
  });
export type RegisterInput = z.infer<typeof RegisterInput>;

export const emailTaken = () => new ApiError("EMAIL_TAKEN");

export async function register(ctx: ServiceContext, input: RegisterInput) {
  if (await findUserByEmail(ctx, input.email)) throw emailTaken();
  const now = nowIso();
  const row: UserRow = {
    id: newId("usr"),
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
  try {
    await ctx.db.insert(users).values(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(); // lost a race with a concurrent registration
    throw error;
  }
  const verifyToken = await issueEmailToken(ctx, row.id, "verify");
  await deliverMail(ctx, verifyEmailMail(mailLinkBase(ctx), row.email, verifyToken, row.locale), "verify-email");
  return { user: toUser(row), token: await issueAccountToken(ctx, row) };
}
