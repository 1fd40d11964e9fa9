// The queue consumers. One delivery, top to bottom: claim the event's next attempt (one D1 round trip),
// sign and send it, record its outcome with the event's new state (one batch), and let the pure retry
// policy decide what comes next. Each message is processed on its own: one failure never retries the batch.
import type { Database } from "../db/client";
import type { ServiceContext } from "../context/service-context";
import { previousSecretRowId } from "./signing-secret";
import { log } from "../lib/log";
import { openSecret } from "../lib/sealed-secret";
import { secretsKeys } from "../config/secret-versions";
import { toIso } from "../lib/time";
import { claimNextAttempt, failEvent, recordAttempt, releaseAttempt, type CallbackState } from "./attempts";
import { attemptDelivery, type AttemptResult } from "./deliver";
import type { QueuedCallback } from "./queued-callback";
import {
  decide,
  decideSingleAttempt,
  internalRetrySeconds,
  MAX_ATTEMPTS,
  MAX_QUEUE_DELAY_SECONDS,
  queueDelaySeconds,
  remainingWaitSeconds,
  type Decision,
} from "./retry-policy";

export const CALLBACK_QUEUE = "callbacks";
export const DEAD_LETTER_QUEUE = "callbacks-dead-letter";
/**
 * max_retries of both consumers in wrangler.toml (the most Cloudflare allows). Every message.retry() of
 * ours counts toward it, the scheduled waits included, not only crashes.
 */
export const QUEUE_MAX_RETRIES = 100;
/**
 * How long a claimed attempt may stay in progress before it counts as interrupted (its consumer
 * stopped): well over one attempt, the 15 s delivery timeout plus the D1 writes.
 */
export const CLAIM_TTL_SECONDS = 60;

/** The Worker's `queue` handler: one entry point, dispatched by queue name. */
export async function handleQueue(batch: MessageBatch<unknown>, ctx: ServiceContext): Promise<void> {
  if (batch.queue === CALLBACK_QUEUE) return handleCallbackBatch(batch as MessageBatch<QueuedCallback>, ctx);
  if (batch.queue === DEAD_LETTER_QUEUE) return handleDeadLetterBatch(batch as MessageBatch<QueuedCallback>, ctx);
  log("error", "message batch from an unknown queue", { queue: batch.queue });
  batch.retryAll();
}

export async function handleCallbackBatch(batch: MessageBatch<QueuedCallback>, ctx: ServiceContext): Promise<void> {
  // In parallel: one slow receiver (up to 15 s) does not hold back the others in the batch.
  await Promise.all(batch.messages.map((message) => processCallback(message, ctx)));
}

export async function handleDeadLetterBatch(batch: MessageBatch<QueuedCallback>, ctx: ServiceContext): Promise<void> {
  await Promise.all(batch.messages.map((message) => processDeadLetter(message, ctx)));
}

const isCallbackMessage = (body: unknown): body is QueuedCallback => {
  const m = body as Partial<QueuedCallback> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    typeof m.webhookId === "string" &&
    typeof m.keyId === "string" &&
    typeof m.callbackUrl === "string" &&
    typeof m.type === "string" &&
    (m.shard === undefined || (Number.isInteger(m.shard) && m.shard >= 0))
  );
};

/** The context on the message's shard (its merchant's): a message sent before sharding names none, shard 0. */
const onMessageShard = (ctx: ServiceContext, body: QueuedCallback) => ctx.onShard(body.shard ?? 0);

/** The error kind recorded for an attempt; null when the status code says it all. */
function errorOf(result: AttemptResult): string | null {
  if (result.outcome.kind === "error") return result.outcome.error;
  const { status } = result.outcome;
  return status >= 300 && status < 400 ? "redirect_not_followed" : null;
}

const stateAfter = (decision: Decision): CallbackState =>
  decision.action === "delivered" ? "delivered" : decision.action === "give_up" ? "failed" : "pending";

/** One message, top to bottom; also run at once for a resolution's first attempt (first-attempt.ts). */
export async function processCallback(message: Message<QueuedCallback>, root: ServiceContext): Promise<void> {
  const body = message.body;
  if (!isCallbackMessage(body)) {
    log("error", "callback message without the expected shape", { messageId: message.id });
    message.ack();
    return;
  }
  const webhookId = body.webhookId;
  const ctx = onMessageShard(root, body);
  try {
    // A step of a wait longer than the queue's maximum delay: not due yet, wait again.
    const remaining = remainingWaitSeconds(body.notBefore, Date.now());
    if (remaining > 0) {
      message.retry({ delaySeconds: queueDelaySeconds(remaining) });
      return;
    }

    // 1. Claim the next attempt. D1 is the count of record: a retried queue message carries its
    //    original body, unchanged.
    const db = ctx.db;
    const now = Date.now();
    const claim = await claimNextAttempt(db, {
      eventId: webhookId,
      keyId: body.keyId,
      awaitsAttempt: body.awaitsAttempt,
      at: toIso(now),
      staleBefore: toIso(now - CLAIM_TTL_SECONDS * 1000),
    });
    switch (claim.kind) {
      case "event_gone":
        log("warn", "callback event no longer exists", { webhookId });
        return message.ack();
      case "settled":
        return message.ack();
      case "superseded":
        log("info", "duplicate callback message dropped", { webhookId, attempt: body.awaitsAttempt ?? null });
        return message.ack();
      case "held":
        return await standAside(message, body, claim.attempt, ctx);
    }
    const { attempt, signingSecretEnc, previousSecretEnc } = claim;
    // A redelivery is one attempt past the schedule: its number may exceed MAX_ATTEMPTS.
    const exhausted = attempt > MAX_ATTEMPTS && !body.redelivery;
    if (exhausted || signingSecretEnc === null) {
      // The last attempts were interrupted, or the key went with its account: the event closes unsent.
      const reason = exhausted ? "attempts_exhausted" : "signing_key_gone";
      log("warn", "callback event closed without sending", { webhookId, attempt, reason });
      const at = toIso(Date.now());
      await recordAttempt(db, { eventId: webhookId, attempt, at, durationMs: 0, statusCode: null, error: reason }, "failed");
      return message.ack();
    }

    // 2. Sign and send.
    const result = await signAndSend(db, ctx, body, attempt, { current: signingSecretEnc, previous: previousSecretEnc });

    // 3. The pure retry policy decides; the outcome and the event's new state are recorded in one batch.
    const decision = body.redelivery ? decideSingleAttempt(result.outcome) : decide(result.outcome, attempt, Date.now(), Math.random());
    const statusCode = result.outcome.kind === "response" ? result.outcome.status : null;
    const error = errorOf(result);
    await recordAttempt(
      db,
      { eventId: webhookId, attempt, at: result.at, durationMs: result.durationMs, statusCode, error },
      stateAfter(decision),
    );
    log(decision.action === "give_up" ? "warn" : "info", "callback attempt", {
      webhookId,
      sessionId: body.sessionId,
      attempt,
      statusCode,
      error,
      durationMs: result.durationMs,
      decision: decision.action,
      ...(decision.action === "retry" ? { waitSeconds: decision.waitSeconds } : {}),
      ...(decision.action === "give_up" ? { reason: decision.reason } : {}),
    });

    // 4. Carry the decision out on the queue.
    if (decision.action !== "retry") {
      message.ack();
    } else if (decision.waitSeconds <= MAX_QUEUE_DELAY_SECONDS) {
      message.retry({ delaySeconds: decision.waitSeconds });
    } else {
      // A retried message keeps its body, so a wait in steps needs a new message that carries its due time.
      await scheduleInSteps(message, body, attempt + 1, decision.waitSeconds, ctx);
    }
  } catch (error) {
    // Only this message is retried; the error's name is logged, never its text (it could quote data).
    // After max_retries the queue moves it to the dead-letter queue, whose consumer marks the event failed.
    const delaySeconds = internalRetrySeconds(message.attempts);
    log("error", "callback processing failed", {
      webhookId,
      error: error instanceof Error ? error.name : "unknown",
      queueAttempts: message.attempts,
      retryInSeconds: delaySeconds,
    });
    message.retry({ delaySeconds });
  }
}

/**
 * Decrypts the key's signing secrets for this attempt only (the previous one too during a rotation's
 * grace, opened under its own slot's binding), then sends. attemptDelivery reports every failure of the
 * POST itself as an outcome, so a throw here means nothing was sent: the claim is given back, and the
 * retry after the back-off takes the same attempt.
 */
async function signAndSend(
  db: Database,
  ctx: ServiceContext,
  body: QueuedCallback,
  attempt: number,
  sealed: { current: string; previous: string | null },
): Promise<AttemptResult> {
  try {
    const keys = secretsKeys(ctx.settings);
    const secrets = [await openSecret(sealed.current, keys, body.keyId)];
    if (sealed.previous) secrets.push(await openSecret(sealed.previous, keys, previousSecretRowId(body.keyId)));
    return await attemptDelivery(body, secrets, ctx.settings.dnsOverHttpsUrl);
  } catch (error) {
    await releaseAttempt(db, body.webhookId, attempt);
    throw error;
  }
}

/**
 * Another copy of this message is sending attempt `held`. This copy comes back once that claim would
 * have expired, as a new message that names the attempt it waits for (a retried message keeps its
 * body): dropped then if that attempt has an outcome, taking over if its holder stopped.
 */
async function standAside(message: Message<QueuedCallback>, body: QueuedCallback, held: number, ctx: ServiceContext): Promise<void> {
  log("info", "callback attempt held by another copy", { webhookId: body.webhookId, attempt: held });
  const notBefore = toIso(Date.now() + CLAIM_TTL_SECONDS * 1000);
  // If the new message cannot be sent, this copy comes back as it is: it may then claim a later
  // attempt, never the one held now.
  await replaceMessage(
    message,
    { ...body, awaitsAttempt: held, notBefore },
    CLAIM_TTL_SECONDS,
    ctx,
    "callback stand-aside could not be enqueued",
  );
}

/**
 * A retried queue message keeps its body, so a wait over the queue's maximum delay becomes a new
 * message that carries its due time (`notBefore`), and the current one is acked.
 */
async function scheduleInSteps(
  message: Message<QueuedCallback>,
  body: QueuedCallback,
  nextAttempt: number,
  waitSeconds: number,
  ctx: ServiceContext,
): Promise<void> {
  const notBefore = toIso(Date.now() + waitSeconds * 1000);
  const { awaitsAttempt: _, ...event } = body;
  // If the new message cannot be sent, this one waits the longest step it can: the next attempt comes a
  // little early (after 12 h) rather than at once.
  await replaceMessage(
    message,
    { ...event, attempt: nextAttempt, notBefore },
    MAX_QUEUE_DELAY_SECONDS,
    ctx,
    "callback step could not be enqueued",
  );
}

/**
 * Acks `message` once `next` is on the queue, delivered after `delaySeconds`. If `next` cannot be sent,
 * the current message is retried after the same delay instead, so the event is never left without one.
 */
async function replaceMessage(
  message: Message<QueuedCallback>,
  next: QueuedCallback,
  delaySeconds: number,
  ctx: ServiceContext,
  failure: string,
): Promise<void> {
  try {
    await ctx.callbackQueue.send(next, { delaySeconds });
  } catch (error) {
    log("error", failure, { webhookId: next.webhookId, error: error instanceof Error ? error.name : "unknown" });
    message.retry({ delaySeconds });
    return;
  }
  message.ack();
}

/**
 * A message lands here when its processing kept failing until the queue gave up on it: the event is
 * marked failed with a record, so nothing disappears silently. When even that cannot be recorded (D1
 * still down), the message is retried with the same back-off; only after this queue's own max_retries
 * (about two more days) is it deleted, and the event stays pending: that last failure is logged at
 * error level with the webhook-id so an operator can close the event by hand.
 */
async function processDeadLetter(message: Message<QueuedCallback>, root: ServiceContext): Promise<void> {
  const body = message.body;
  if (!isCallbackMessage(body)) {
    log("error", "dead-lettered callback message without the expected shape", { messageId: message.id });
    message.ack();
    return;
  }
  const webhookId = body.webhookId;
  const ctx = onMessageShard(root, body);
  try {
    if (await failEvent(ctx.db, webhookId, toIso(Date.now()), "dead_lettered")) {
      log("warn", "callback event dead-lettered and marked failed", { webhookId, sessionId: body.sessionId });
    } else {
      log("info", "dead-lettered callback event already settled or gone", { webhookId });
    }
    message.ack();
  } catch (error) {
    const lastTry = message.attempts > QUEUE_MAX_RETRIES;
    const delaySeconds = internalRetrySeconds(message.attempts);
    log("error", lastTry ? "dead-letter retries used up: callback event left pending" : "dead-letter processing failed", {
      webhookId,
      sessionId: body.sessionId,
      error: error instanceof Error ? error.name : "unknown",
      queueAttempts: message.attempts,
      ...(lastTry ? {} : { retryInSeconds: delaySeconds }),
    });
    message.retry({ delaySeconds });
  }
}
