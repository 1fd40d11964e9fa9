// The mail queue consumer: sends each message through Cloudflare Email Service on its own (one failure
// never retries the batch), retrying a failed send with back-off; after the last attempt the failure is
// recorded (src/mail/failures.ts) and logged, and the message acked. A message that reaches the
// dead-letter queue (a consumer that kept crashing) is recorded the same way.
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import { describeSendError, recordMailFailure } from "./failures";
import { isMailMessage, type MailMessage } from "./queue";

/** Sends tried per message: over about 45 minutes, inside the shortest link lifetime (1 hour, reset). */
export const MAIL_MAX_ATTEMPTS = 8;
/** max_retries of the mail consumers in wrangler.toml: above MAIL_MAX_ATTEMPTS, for crashes only. */
export const MAIL_QUEUE_MAX_RETRIES = 10;
const BASE_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;

/** The wait after failed send `attempt` (1-based): 30 s doubling, at most 15 minutes. */
export const mailRetryDelaySeconds = (attempt: number) => Math.min(BASE_DELAY_SECONDS * 2 ** Math.max(attempt - 1, 0), MAX_DELAY_SECONDS);

export async function handleMailBatch(batch: MessageBatch<unknown>, ctx: ServiceContext): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleMailMessage(message, ctx)));
}

export async function handleMailMessage(message: Message<unknown>, ctx: ServiceContext): Promise<void> {
  const body = message.body;
  if (!isMailMessage(body)) {
    log("error", "mail message without the expected shape", { messageId: message.id });
    message.ack();
    return;
  }
  try {
    await ctx.mailer.send(body);
    log("info", "mail sent", { purpose: body.purpose, attempts: message.attempts });
    message.ack();
  } catch (error) {
    const described = describeSendError(error);
    if (message.attempts < MAIL_MAX_ATTEMPTS) {
      const delaySeconds = mailRetryDelaySeconds(message.attempts);
      log("warn", "mail send failed; retrying", {
        purpose: body.purpose,
        error: described,
        attempts: message.attempts,
        retryInSeconds: delaySeconds,
      });
      message.retry({ delaySeconds });
      return;
    }
    await giveUp(message, body, ctx, described);
  }
}

/** Records the failure; if even that fails, the message is retried (and dead-lettered in the end). */
async function giveUp(message: Message<unknown>, body: MailMessage, ctx: ServiceContext, error: string): Promise<void> {
  try {
    await recordMailFailure(ctx.home, body, error, message.attempts);
    // No recipient in the line, not even hashed: an unkeyed hash of an address is the address to anyone
    // who can guess it. The recorded failure row answers "did my mail fail?" (docs/operations.md).
    log("error", "mail not delivered after the last retry", { purpose: body.purpose, error, attempts: message.attempts });
    message.ack();
  } catch (recordError) {
    log("error", "mail failure could not be recorded", {
      purpose: body.purpose,
      error: recordError instanceof Error ? recordError.name : "unknown",
    });
    message.retry({ delaySeconds: MAX_DELAY_SECONDS });
  }
}

export async function handleMailDeadLetterBatch(batch: MessageBatch<unknown>, ctx: ServiceContext): Promise<void> {
  await Promise.all(batch.messages.map((message) => handleDeadLetteredMail(message, ctx)));
}

export async function handleDeadLetteredMail(message: Message<unknown>, ctx: ServiceContext): Promise<void> {
  const body = message.body;
  if (!isMailMessage(body)) {
    message.ack();
    return;
  }
  await giveUp(message, body, ctx, "dead_lettered");
}
