// The account mails. Each carries its action link with the token as ?token=<token> (CONTRACT §10).
import type { Bindings } from "../config";
import type { Mail } from "./mailer";

const link = (env: Bindings, path: string, token: string) =>
  `${env.APP_URL.replace(/\/$/, "")}${path}?token=${encodeURIComponent(token)}`;

export const verifyEmailMail = (env: Bindings, to: string, token: string): Mail => ({
  to,
  subject: "Confirm your email address",
  text: `Confirm your email address for the age-verification service:\n\n${link(env, "/account/verify-email", token)}\n\nThe link works once and expires in 24 hours.`,
});

export const resetPasswordMail = (env: Bindings, to: string, token: string): Mail => ({
  to,
  subject: "Reset your password",
  text: `Someone asked to reset the password of this account. If it was you, choose a new password here:\n\n${link(env, "/account/reset-password", token)}\n\nThe link works once and expires in 1 hour. If it was not you, ignore this message.`,
});

export const confirmEmailChangeMail = (env: Bindings, to: string, token: string): Mail => ({
  to,
  subject: "Confirm your new email address",
  text: `Confirm that this is the new email address of your account:\n\n${link(env, "/account/confirm-email-change", token)}\n\nThe link works once and expires in 24 hours.`,
});
