// Forgotten password: a mailed single-use token (1 hour) sets a new password and signs out everywhere.
import * as z from "zod";
import { secret } from "../../config/settings";
import { log } from "../../lib/log";
import { hashPassword } from "../../lib/password";
import { deliverMail } from "../../mail/send-account-mail";
import { resetPasswordMail } from "../../mail/messages";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { consumeEmailToken, issueEmailToken } from "./email-links";
import { signOutEverywhere } from "./sign-in";
import { EmailField, findUserByEmail, PasswordField } from "./users";

export const ForgotPasswordInput = z.object({ email: EmailField });
export const ResetPasswordInput = z.object({ token: z.string().min(1).max(200), newPassword: PasswordField });

/**
 * Sends a reset link if the account exists; the caller answers 202 either way (no enumeration) and runs
 * this after its answer (waitUntil), so nothing can reject into the void: a failure is logged by its
 * name only (no address) and the user can ask again.
 */
export async function requestPasswordReset(ctx: ServiceContext, email: string): Promise<void> {
  try {
    const user = await findUserByEmail(ctx, email);
    if (!user) return;
    const token = await issueEmailToken(ctx, user.id, "reset");
    await deliverMail(ctx, resetPasswordMail(mailLinkBase(ctx), user.email, token, user.locale), "reset-password");
  } catch (error) {
    log("error", "password reset not started", { error: error instanceof Error ? error.name : "unknown" });
  }
}

export async function resetPassword(ctx: ServiceContext, input: z.infer<typeof ResetPasswordInput>) {
  const used = await consumeEmailToken(ctx, input.token, "reset");
  await signOutEverywhere(ctx, used.userId, { passwordHash: await hashPassword(input.newPassword, secret(ctx.settings, "PASSWORD_PEPPER")) });
}
