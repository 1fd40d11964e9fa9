// A deleted account's applicant is deleted at the identity provider too, through the mail queue (a
// message type of its own beside the mails): the account's own data goes at once and never waits for
// the provider; the consumer deletes the applicant, retrying with the mail queue's back-off while the
// provider is down, and after the last attempt records the failure for the operator
// (applicant_deletion_failures: the provider's opaque applicant id, nothing about the person) and acks.
import type { Database } from "../db/client";
import { applicantDeletionFailures } from "../db/schema";
import { ApiError } from "../errors";
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import { nowIso } from "../lib/time";
import { MAIL_MAX_ATTEMPTS, mailRetryDelaySeconds } from "../mail/mail-consumer";
import type { IdentityProvider } from "../context/identity-provider";

export type ApplicantDeletionMessage = { type: "delete-applicant"; provider: IdentityProvider["name"]; applicantId: string };

export const isApplicantDeletionMessage = (body: unknown): body is ApplicantDeletionMessage => {
  const m = body as Partial<ApplicantDeletionMessage> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    m.type === "delete-applicant" &&
    typeof m.provider === "string" &&
    typeof m.applicantId === "string"
  );
};

/** Attempts per applicant: the mail queue's (about 45 minutes of back-off), below its max_retries. */
export const APPLICANT_DELETION_MAX_ATTEMPTS = MAIL_MAX_ATTEMPTS;

/**
 * Hands the deletion to the queue without waiting for the provider. If even the enqueue fails, the
 * failure is recorded at once (attempts 0), so the operator still learns of the applicant left behind.
 */
export async function enqueueApplicantDeletion(ctx: ServiceContext, applicantId: string): Promise<void> {
  const message: ApplicantDeletionMessage = {
    type: "delete-applicant",
    provider: ctx.settings.provider === "onfido" ? "onfido" : "sandbox",
    applicantId,
  };
  try {
    await ctx.mailQueue.send(message);
  } catch (error) {
    log("error", "applicant deletion not enqueued", { provider: message.provider, error: error instanceof Error ? error.name : "unknown" });
    await recordApplicantDeletionFailure(ctx.home, message, "not_enqueued", 0);
  }
}

export async function recordApplicantDeletionFailure(
  db: Database,
  message: ApplicantDeletionMessage,
  error: string,
  attempts: number,
): Promise<void> {
  await db
    .insert(applicantDeletionFailures)
    .values({ provider: message.provider, applicantId: message.applicantId, error, attempts, failedAt: nowIso() });
}

/** One deletion message from the mail queue: deleted (ack), retried with back-off, or given up on and recorded. */
export async function handleApplicantDeletion(message: Message<unknown>, ctx: ServiceContext): Promise<void> {
  const body = message.body as ApplicantDeletionMessage;
  try {
    // The provider was switched since the account was deleted: this one never knew the applicant. (With
    // no usable PROVIDER at all, the deletion below fails as MISCONFIGURED and is retried.)
    if (ctx.settings.provider !== undefined && ctx.provider.name !== body.provider)
      return await giveUp(message, body, ctx, "provider_changed");
    await ctx.provider.deleteApplicant(body.applicantId);
    log("info", "applicant deleted at the provider", { provider: body.provider, attempts: message.attempts });
    message.ack();
  } catch (error) {
    // The error code or name only: never a provider body, which can quote the applicant.
    const described = error instanceof ApiError ? error.code : error instanceof Error ? error.name : "unknown";
    if (message.attempts < APPLICANT_DELETION_MAX_ATTEMPTS) {
      const delaySeconds = mailRetryDelaySeconds(message.attempts);
      log("warn", "applicant deletion failed; retrying", {
        provider: body.provider,
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

/** A deletion message that reached the mail dead-letter queue: recorded like a last failed attempt. */
export const handleDeadLetteredApplicantDeletion = (message: Message<unknown>, ctx: ServiceContext) =>
  giveUp(message, message.body as ApplicantDeletionMessage, ctx, "dead_lettered");

/** Records the failure; if even that fails, the message is retried (and dead-lettered in the end). */
async function giveUp(message: Message<unknown>, body: ApplicantDeletionMessage, ctx: ServiceContext, error: string): Promise<void> {
  try {
    await recordApplicantDeletionFailure(ctx.home, body, error, message.attempts);
    log("error", "applicant not deleted at the provider after the last retry", {
      provider: body.provider,
      error,
      attempts: message.attempts,
    });
    message.ack();
  } catch (recordError) {
    log("error", "applicant deletion failure could not be recorded", {
      provider: body.provider,
      error: recordError instanceof Error ? recordError.name : "unknown",
    });
    message.retry({ delaySeconds: mailRetryDelaySeconds(APPLICANT_DELETION_MAX_ATTEMPTS) });
  }
}
