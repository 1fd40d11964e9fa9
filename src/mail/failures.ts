// Mail that could not be sent after its last retry, recorded for the operator: the recipient only as a
// hash, the purpose, the error and the time; never the mail, so never its link.
import type { Database } from "../db/client";
import { mailFailures } from "../db/schema";
import { sha256Hex } from "../lib/crypto";
import { nowIso } from "../lib/time";
import type { MailMessage } from "./queue";

/** The hash an operator computes to look up an address: SHA-256 hex of the trimmed, lower-cased address. */
export const recipientHash = (address: string) => sha256Hex(address.trim().toLowerCase());

/**
 * A send error as it may be stored and logged: its name and message with any address or URL taken out
 * (a provider's message can quote the recipient), at most 200 characters.
 */
export function describeSendError(error: unknown): string {
  if (!(error instanceof Error)) return "unknown";
  const message = error.message.replace(/https?:\/\/\S+/g, "<url>").replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "<address>");
  return `${error.name}: ${message}`.slice(0, 200);
}

export async function recordMailFailure(db: Database, mail: MailMessage, error: string, attempts: number): Promise<void> {
  await db
    .insert(mailFailures)
    .values({ recipientHash: await recipientHash(mail.to), purpose: mail.purpose, error, attempts, failedAt: nowIso() });
}
