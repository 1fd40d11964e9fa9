// The account mails. Each carries its action link with the token as ?token=<token> (CONTRACT §10),
// in the language the account signed up in (src/mail/mail-texts.ts).
import type { Bindings } from "../config";
import type { Locale } from "../db/schema";
import { MAIL_TEXTS, type MailKind } from "./mail-texts";
import type { Mail } from "./mailer";

const PATHS: Record<MailKind, string> = {
  "verify-email": "/account/verify-email",
  "reset-password": "/account/reset-password",
  "confirm-email-change": "/account/confirm-email-change",
};

const link = (env: Bindings, kind: MailKind, token: string) =>
  `${env.APP_URL.replace(/\/$/, "")}${PATHS[kind]}?token=${encodeURIComponent(token)}`;

function accountMail(kind: MailKind, env: Bindings, to: string, token: string, locale: Locale): Mail {
  const words = MAIL_TEXTS[locale][kind];
  return { to, subject: words.subject, text: `${words.before}\n\n${link(env, kind, token)}\n\n${words.after}` };
}

export const verifyEmailMail = (env: Bindings, to: string, token: string, locale: Locale = "en") => accountMail("verify-email", env, to, token, locale);
export const resetPasswordMail = (env: Bindings, to: string, token: string, locale: Locale = "en") => accountMail("reset-password", env, to, token, locale);
export const confirmEmailChangeMail = (env: Bindings, to: string, token: string, locale: Locale = "en") =>
  accountMail("confirm-email-change", env, to, token, locale);
