// The mailer port: how account mail leaves the service. Development writes it to the D1 outbox (GET
// /api/dev/outbox); production sends it through Cloudflare Email Service (src/mail/dev-outbox-mailer.ts), called by
// the mail queue's consumer.

/** One account mail as the domain writes it, before any transport (outbox, queue, Email Service). */
export type Mail = { to: string; subject: string; text: string };

export interface Mailer {
  send(mail: Mail): Promise<void>;
}
