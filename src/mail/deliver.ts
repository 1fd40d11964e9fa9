// Sends account mail without letting a mail failure fail the request: the user can ask again
// (resend-verification, forgot-password), and the log line names only the kind of mail.
import type { DomainContext } from "../domain/context";
import { log } from "../lib/log";
import { sendMail, type Mail } from "./mailer";

export async function deliverMail(ctx: DomainContext, mail: Mail, kind: string): Promise<void> {
  try {
    await sendMail(ctx, mail);
  } catch (error) {
    log("error", "mail not sent", { kind, error: error instanceof Error ? error.name : "unknown" });
  }
}
