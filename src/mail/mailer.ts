// The mailer port: development writes to the D1 outbox (GET /api/dev/outbox), production sends
// through Cloudflare Email Service (called by the mail queue consumer, src/mail/mail-consumer.ts).
import { isProduction } from "../config/settings";
import { devOutbox } from "../db/schema";
import type { DomainContext } from "../context/service-context";
import { sendThroughEmailService } from "./email-service";

import type { Mail } from "./mail";

export type { Mail };

export async function sendMail({ db, env }: DomainContext, mail: Mail): Promise<void> {
  if (!isProduction(env)) {
    await db.insert(devOutbox).values({ ...mail, createdAt: new Date().toISOString() });
    return;
  }
  await sendThroughEmailService(env.MAILER, env.MAIL_FROM, mail);
}
