// Forgotten password: a mailed single-use token (1 hour) sets a new password and signs out everywhere.
import * as z from "zod";
import { secret } from "../config";
import type { Database } from "../db/client";
import type { Bindings } from "../config";
import { hashPassword } from "../lib/password";
import { deliverMail } from "../mail/deliver";
import { resetPasswordMail } from "../mail/messages";
import { consumeEmailToken, issueEmailToken } from "./email-tokens";
import { signOutEverywhere } from "./sign-in";
import { EmailField, findUserByEmail, PasswordField } from "./users";

export const ForgotPasswordInput = z.object({ email: EmailField });
export const ResetPasswordInput = z.object({ token: z.string().min(1).max(200), newPassword: PasswordField });

/** Sends a reset link if the account exists; the caller answers 202 either way (no enumeration). */
export async function requestPasswordReset(db: Database, env: Bindings, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const token = await issueEmailToken(db, user.id, "reset");
  await deliverMail(env, resetPasswordMail(env, user.email, token), "reset-password");
}

export async function resetPassword(db: Database, env: Bindings, input: z.infer<typeof ResetPasswordInput>) {
  const used = await consumeEmailToken(db, input.token, "reset");
  await signOutEverywhere(db, used.userId, { passwordHash: await hashPassword(input.newPassword, secret(env, "PASSWORD_PEPPER")) });
}
