// The mailer port's development adapter (src/context/mailer.ts): mail is written to the D1 outbox, which
// GET /api/dev/outbox reads. Production's is Cloudflare Email Service (src/mail/email-service.ts);
// src/service.ts picks one per isolate.
import type { Database } from "../db/client";
import { devOutbox } from "../db/schema";
import type { Mail, Mailer } from "../context/mailer";

export const devOutboxMailer = (db: Database): Mailer => ({
  async send(mail: Mail) {
    await db.insert(devOutbox).values({ ...mail, createdAt: new Date().toISOString() });
  },
});
