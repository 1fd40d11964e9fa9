// Hands account mail on without letting a mail failure fail the request: development writes the outbox
// at once (GET /api/dev/outbox, as the tests and the demo read it); production enqueues on the mail
// queue and does not wait for delivery, which the consumer retries (src/mail/consumer.ts). If even the
// enqueue fails the user can ask again (resend-verification, forgot-password); the log line names only
// the kind of mail.
import { isProduction } from "../config";
import type { Bindings } from "../env";
import { log } from "../http/logger";
import { sendMail, type Mail } from "./mailer";
import type { MailMessage, MailPurpose } from "./queue";

export async function deliverMail(env: Bindings, mail: Mail, kind: MailPurpose): Promise<void> {
  try {
    if (isProduction(env)) await env.MAIL.send({ purpose: kind, ...mail } satisfies MailMessage);
    else await sendMail(env, mail);
  } catch (error) {
    log("error", "mail not sent", { kind, error: error instanceof Error ? error.name : "unknown" });
  }
}
