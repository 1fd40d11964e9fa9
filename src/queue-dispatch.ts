// The Worker's `queue` handler: each batch to its consumer by the role of its queue. Staging's queues
// are production's names with a "staging-" prefix (a queue has one consumer, so staging cannot share
// production's; wrangler.toml [env.staging]): the role is the name without it. The mail queue also carries
// the provider's applicant deletions and a deleted account's sessions to close: each message on its own.
import { CALLBACK_QUEUE, DEAD_LETTER_QUEUE, handleCallbackBatch, handleDeadLetterBatch, handleQueue } from "./callbacks/consumer";
import type { QueuedCallback } from "./callbacks/queued-callback";
import type { ServiceContext } from "./context/service-context";
import { handleDeadLetteredMail, handleMailMessage } from "./mail/mail-consumer";
import { handleApplicantDeletion, handleDeadLetteredApplicantDeletion, isApplicantDeletionMessage } from "./providers/applicant-deletion";
import { handleDeadLetteredSessionClosing, handleSessionClosing, isSessionClosingMessage } from "./session/closing-for-deleted-account";

export const STAGING_QUEUE_PREFIX = "staging-";
export const MAIL_QUEUE = "mail";
export const MAIL_DEAD_LETTER_QUEUE = "mail-dead-letter";

export const queueRole = (name: string): string => (name.startsWith(STAGING_QUEUE_PREFIX) ? name.slice(STAGING_QUEUE_PREFIX.length) : name);

export async function dispatchQueue(batch: MessageBatch<unknown>, ctx: ServiceContext): Promise<void> {
  const role = queueRole(batch.queue);
  // The mail queue also carries applicant deletions (src/providers/applicant-deletion.ts); each message on its own.
  if (role === MAIL_QUEUE) {
    await Promise.all(
      batch.messages.map((m) =>
        isApplicantDeletionMessage(m.body)
          ? handleApplicantDeletion(m, ctx)
          : isSessionClosingMessage(m.body)
            ? handleSessionClosing(m, ctx)
            : handleMailMessage(m, ctx),
      ),
    );
    return;
  }
  if (role === MAIL_DEAD_LETTER_QUEUE) {
    await Promise.all(
      batch.messages.map((m) =>
        isApplicantDeletionMessage(m.body)
          ? handleDeadLetteredApplicantDeletion(m, ctx)
          : isSessionClosingMessage(m.body)
            ? handleDeadLetteredSessionClosing(m)
            : handleDeadLetteredMail(m, ctx),
      ),
    );
    return;
  }
  if (role === CALLBACK_QUEUE) return handleCallbackBatch(batch as MessageBatch<QueuedCallback>, ctx);
  if (role === DEAD_LETTER_QUEUE) return handleDeadLetterBatch(batch as MessageBatch<QueuedCallback>, ctx);
  return handleQueue(batch, ctx); // logs the unknown queue and retries the batch
}
