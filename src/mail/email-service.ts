// Cloudflare Email Service (Email Sending): the structured send() of a send_email binding without
// destination restrictions, from MAIL_FROM on a domain onboarded to Email Sending. A plain-text part and
// a simple HTML part.
import { mailHtml } from "./html";
import type { Mail, Mailer } from "../context/mailer";

export async function sendThroughEmailService(binding: SendEmail, from: string, mail: Mail): Promise<string> {
  const result = await binding.send({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mailHtml(mail.text) });
  return result.messageId;
}

/** The mailer port's production adapter: called by the mail queue consumer (src/mail/mail-consumer.ts). */
export const emailServiceMailer = (binding: SendEmail, from: string): Mailer => ({
  async send(mail: Mail) {
    await sendThroughEmailService(binding, from, mail);
  },
});
