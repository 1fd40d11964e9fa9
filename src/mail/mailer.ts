// The mailer port: development writes to the D1 outbox (GET /api/dev/outbox), production sends
// through the Workers send_email binding.
import { isProduction } from "../config";
import { devOutbox } from "../db/schema";
import type { DomainContext } from "../domain/context";
import { buildTextEmail } from "./mime";

export type Mail = { to: string; subject: string; text: string };

export async function sendMail({ db, env }: DomainContext, mail: Mail): Promise<void> {
  if (!isProduction(env)) {
    await db.insert(devOutbox).values({ ...mail, createdAt: new Date().toISOString() });
    return;
  }
  // Loaded only in production: the module exists in workerd alone.
  const { EmailMessage } = await import("cloudflare:email");
  const from = env.MAIL_FROM;
  await env.MAILER.send(new EmailMessage(from, mail.to, buildTextEmail({ from, ...mail })));
}
