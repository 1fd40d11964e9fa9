// Password change and email change for a signed-in account. Both sign out every earlier token.
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import type { UserRow } from "../../db/schema";
import { hashPassword } from "../../lib/password";
import { deliverMail } from "../../mail/send-account-mail";
import { confirmEmailChangeMail, noticeMail } from "../../mail/messages";
import { issueAccountToken } from "./account-tokens";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { consumeEmailToken, invalidToken, issueEmailToken, onEmailTokenShard } from "./email-links";
import { emailTaken } from "./registration";
import { checkPassword, invalidCredentials, signOutEverywhere } from "./sign-in";
import { isUniqueViolation } from "../../db/unique-violation";
import { EmailField, PasswordField, toUser } from "./users";
import { accountIdOfEmail, claimEmail, releaseEmail } from "./account-directory";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema";

export const ChangePasswordInput = z.object({
  currentPassword: z.string().check(z.minLength(1), z.maxLength(128)),
  newPassword: PasswordField,
});
export const ChangeEmailInput = z.object({ newEmail: EmailField, password: z.string().check(z.minLength(1), z.maxLength(128)) });
export const TokenInput = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });

/** Returns a fresh token: the caller's old one stops working with every other. */
export async function changePassword(ctx: ServiceContext, user: UserRow, input: z.infer<typeof ChangePasswordInput>) {
  if (!(await checkPassword(ctx, user, input.currentPassword))) throw invalidCredentials();
  const updated = await signOutEverywhere(ctx, user.id, {
    passwordHash: await hashPassword(input.newPassword, secret(ctx.settings, "PASSWORD_PEPPER")),
  });
  // The owner hears of it at the account's address, whoever held the token.
  await deliverMail(ctx, noticeMail("password-changed", user.email, user.locale), "password-changed");
  return issueAccountToken(ctx, updated!);
}

export async function requestEmailChange(ctx: ServiceContext, user: UserRow, input: z.infer<typeof ChangeEmailInput>) {
  if (!(await checkPassword(ctx, user, input.password))) throw invalidCredentials();
  if (input.newEmail === user.email || (await accountIdOfEmail(ctx, input.newEmail))) throw emailTaken();
  const token = await issueEmailToken(ctx, user.id, "change_email", input.newEmail);
  await deliverMail(ctx, confirmEmailChangeMail(mailLinkBase(ctx), input.newEmail, token, user.locale), "confirm-email-change");
  // The address the change would leave hears of it first: its owner can still stop it (reset the password).
  await deliverMail(ctx, noticeMail("email-change-requested", user.email, user.locale), "email-change-requested");
}

/**
 * The new address is verified by the click itself. Across shards: claim the new address in the
 * directory (someone may have registered it meanwhile), move the account, then release the old one.
 */
export async function confirmEmailChange(root: ServiceContext, token: string) {
  const ctx = await onEmailTokenShard(root, token);
  const used = await consumeEmailToken(ctx, token, "change_email");
  if (!used.newEmail) throw invalidToken();
  const [before] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, used.userId)).limit(1);
  if (!before) throw invalidToken();
  if (!(await claimEmail(ctx, used.newEmail, used.userId))) throw emailTaken(); // someone registered the address meanwhile
  try {
    const row = await signOutEverywhere(ctx, used.userId, { email: used.newEmail, emailVerified: true });
    if (!row) throw invalidToken();
    await releaseEmail(ctx, before.email, used.userId);
    return toUser(row);
  } catch (error) {
    await releaseEmail(ctx, used.newEmail, used.userId);
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
