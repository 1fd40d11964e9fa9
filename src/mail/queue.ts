// Production mail leaves through the mail queue: the request that asked for it only enqueues, and the
// consumer (src/mail/mail-consumer.ts) sends with retries, so a transient failure loses no link.
import type { NoticeKind } from "./notice-texts";
export type MailPurpose = "verify-email" | "reset-password" | "confirm-email-change" | NoticeKind;

export type MailMessage = { purpose: MailPurpose; to: string; subject: string; text: string };

export const isMailMessage = (body: unknown): body is MailMessage => {
  const m = body as Partial<MailMessage> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    typeof m.purpose === "string" &&
    typeof m.to === "string" &&
    typeof m.subject === "string" &&
    typeof m.text === "string"
  );
};
