// Forgotten password: a mailed single-use token (1 hour) sets a new password, signs out everywhere and
// removes the account's passkeys: the mailbox is the owner's way back from a stolen token that enrolled
// its own passkey (docs/security-privacy.md). The removal is mailed.
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import { log } from "../../lib/log";
import { hashPassword } from "../../lib/password";
import { deliverMail } from "../../mail/send-account-mail";
import { noticeMail, resetPasswordMail } from "../../mail/messages";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { consumeEmailToken, issueEmailToken } from "./email-links";
import { signOutStatements } from "./sign-in";
import { eq } from "drizzle-orm";
import { passkeys } from "../../db/schema";
import { EmailField, PasswordField } from "./users";
import { findAccountByEmail } from "./account-directory";
import { onEmailTokenShard } from "./email-links";

export const ForgotPasswordInput = z.object({ email: EmailField });
export const ResetPasswordInput = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)), newPassword: PasswordField });

/**
 * Sends a reset link if the account exists; the caller answers 202 either way (no enumeration) and runs
 * this after its answer (waitUntil), so nothing can reject into the void: a failure is logged by its
 * name only (no address) and the user can ask again.
 */
export async function requestPasswordReset(root: ServiceContext, email: string): Promise<void> {
  try {
    const found = await findAccountByEmail(root, email);
    if (!found) return;
    const { user, ctx } = found;
    const token = await issueEmailToken(ctx, user.id, "reset");
    await deliverMail(ctx, resetPasswordMail(mailLinkBase(ctx), user.email, token, user.locale), "reset-password");
  } catch (error) {
    log("error", "password reset not started", { error: error instanceof Error ? error.name : "unknown" });
  }
}

export async function resetPassword(root: ServiceContext, input: z.infer<typeof ResetPasswordInput>) {
  const ctx = await onEmailTokenShard(root, input.token);
  const used = await consumeEmailToken(ctx, input.token, "reset");
  const passwordHash = await hashPassword(input.newPassword, secret(ctx.settings, "PASSWORD_PEPPER"));
  const [[user], , removed] = await ctx.db.batch([
    ...signOutStatements(ctx.db, used.userId, { passwordHash }),
    ctx.db.delete(passkeys).where(eq(passkeys.userId, used.userId)).returning({ id: passkeys.id }),
  ]);
  if (user && removed.length > 0) await deliverMail(ctx, noticeMail("passkeys-removed", user.email, user.locale), "passkeys-removed");
}
