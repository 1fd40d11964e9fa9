// The account mails. Each link mail carries its action link with the token as ?token=<token>
// (docs/api-contract.md §Auth); a notice carries no link (src/mail/notice-texts.ts). In the language the account signed up in.
import type { Locale } from "../db/schema";
import { MAIL_TEXTS, type MailKind } from "./mail-texts";
import { NOTICE_TEXTS, type NoticeKind } from "./notice-texts";
import type { Mail } from "../context/mailer";

const PATHS: Record<MailKind, string> = {
  "verify-email": "/account/verify-email",
  "reset-password": "/account/reset-password",
  "confirm-email-change": "/account/confirm-email-change",
};

const link = (base: string, kind: MailKind, token: string) => `${base.replace(/\/$/, "")}${PATHS[kind]}?token=${encodeURIComponent(token)}`;

function accountMail(kind: MailKind, base: string, to: string, token: string, locale: Locale): Mail {
  const words = MAIL_TEXTS[locale][kind];
  return { to, subject: words.subject, text: `${words.before}\n\n${link(base, kind, token)}\n\n${words.after}` };
}

export const verifyEmailMail = (base: string, to: string, token: string, locale: Locale = "en") =>
  accountMail("verify-email", base, to, token, locale);
export const resetPasswordMail = (base: string, to: string, token: string, locale: Locale = "en") =>
  accountMail("reset-password", base, to, token, locale);
export const confirmEmailChangeMail = (base: string, to: string, token: string, locale: Locale = "en") =>
  accountMail("confirm-email-change", base, to, token, locale);

/** A notice to the account's own address: what changed, and what to do if it was not the owner. */
export function noticeMail(kind: NoticeKind, to: string, locale: Locale = "en"): Mail {
  const words = NOTICE_TEXTS[locale][kind];
  return { to, subject: words.subject, text: words.text };
}
