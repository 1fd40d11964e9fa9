// The mailer port's two adapters (src/context/mailer.ts): development writes to the D1 outbox (GET
// /api/dev/outbox), production sends through Cloudflare Email Service (called by the mail queue
// consumer, src/mail/mail-consumer.ts). src/service.ts picks one per isolate.
import type { Database } from "../db/client";
import { devOutbox } from "../db/schema";
import type { Mail, Mailer } from "../context/mailer";
import { sendThroughEmailService } from "./email-service";

export const devOutboxMailer = (db: Database): Mailer => ({
  async send(mail: Mail) {
    await db.insert(devOutbox).values({ ...mail, createdAt: new Date().toISOString() });
  },
});

export const emailServiceMailer = (binding: SendEmail, from: string): Mailer => ({
  async send(mail: Mail) {
    await sendThroughEmailService(binding, from, mail);
  },
});
