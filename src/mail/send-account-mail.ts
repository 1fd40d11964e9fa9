// Hands account mail on without letting a mail failure fail the request: development writes the outbox
// at once (GET /api/dev/outbox, as the tests and the demo read it); production enqueues on the mail
// queue and does not wait for delivery, which the consumer retries (src/mail/mail-consumer.ts). If even the
// enqueue fails the user can ask again (resend-verification, forgot-password); the log line names only
// the kind of mail.
import type { Mail } from "../context/mailer";
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import type { MailMessage, MailPurpose } from "./queue";

export async function deliverMail(ctx: ServiceContext, mail: Mail, kind: MailPurpose): Promise<void> {
  try {
    if (ctx.settings.production) await ctx.mailQueue.send({ purpose: kind, ...mail } satisfies MailMessage);
    else await ctx.mailer.send(mail);
  } catch (error) {
    log("error", "mail not sent", { kind, error: error instanceof Error ? error.name : "unknown" });
  }
}
