// The queue consumers: deliver each callback message on its own (one failure never retries the
// batch), record every attempt in D1, then ack or schedule the next attempt on the retry policy.
import { database, type Database } from "../db/client";
import {
  claimAttempt,
  countAttempts,
  findAttempt,
  findCallbackEvent,
  IN_PROGRESS,
  INTERRUPTED,
  latestAttempt,
  recordAttempt,
  recordClaimedAttempt,
  type CallbackState,
} from "../domain/callback-log";
import { log } from "../lib/log";
import { toIso } from "../lib/time";
import { attemptDelivery, type AttemptResult } from "./deliver";
import type { CallbackMessage } from "./message";
import {
  decide,
  internalRetrySeconds,
  MAX_ATTEMPTS,
  MAX_QUEUE_DELAY_SECONDS,
  queueDelaySeconds,
  remainingWaitSeconds,
  type Decision,
} from "./retry-policy";
import { loadSigningSecret } from "./signing-secret";

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
export async function handleQueue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  if (batch.queue === CALLBACK_QUEUE) return handleCallbackBatch(batch as MessageBatch<CallbackMessage>, env);
  if (batch.queue === DEAD_LETTER_QUEUE) return handleDeadLetterBatch(batch as MessageBatch<CallbackMessage>, env);
  log("error", "message batch from an unknown queue", { queue: batch.queue });
  batch.retryAll();
}

export async function handleCallbackBatch(batch: MessageBatch<CallbackMessage>, env: Env): Promise<void> {
  // In parallel: one slow receiver (up to 15 s) does not hold back the others in the batch.
  await Promise.all(batch.messages.map((message) => processCallback(message, env)));
}

export async function handleDeadLetterBatch(batch: MessageBatch<CallbackMessage>, env: Env): Promise<void> {
  await Promise.all(batch.messages.map((message) => processDeadLetter(message, env)));
}

const isCallbackMessage = (body: unknown): body is CallbackMessage => {
  const m = body as Partial<CallbackMessage> | null;
  return (
    typeof m === "object" &&
    m !== null &&
    typeof m.webhookId === "string" &&
    typeof m.keyId === "string" &&
    typeof m.callbackUrl === "string" &&
    typeof m.type === "string"
  );
};

/** The error kind recorded for an attempt; null when the status code says it all. */
function errorOf(result: AttemptResult): string | null {
  if (result.outcome.kind === "error") return result.outcome.error;
  const { status } = result.outcome;
  return status >= 300 && status < 400 ? "redirect_not_followed" : null;
}

const stateAfter = (decision: Decision): CallbackState =>
  decision.action === "delivered" ? "delivered" : decision.action === "give_up" ? "failed" : "pending";

async function processCallback(message: Message<CallbackMessage>, env: Env): Promise<void> {
  const body = message.body;
  if (!isCallbackMessage(body)) {
    log("error", "callback message without the expected shape", { messageId: message.id });
    message.ack();
    return;
  }
  const webhookId = body.webhookId;
  try {
    // A step of a wait longer than the queue's maximum delay: not due yet, wait again.
    const remaining = remainingWaitSeconds(body.notBefore, Date.now());
    if (remaining > 0) {
      message.retry({ delaySeconds: queueDelaySeconds(remaining) });
      return;
    }

    const db = database(env.DB);
    const event = await findCallbackEvent(db, webhookId);
    if (!event) {
      // The session and its events went with a deleted account: nothing to deliver, nobody to tell.
      log("warn", "callback event no longer exists", { webhookId });
      message.ack();
      return;
    }
    // Already delivered or failed: a redelivered duplicate of a settled event.
    if (event.state !== "pending") {
      message.ack();
      return;
    }

    // A copy that stood aside for another holder of an attempt: once that attempt has an outcome, its
    // holder carries the event on (it acked or scheduled the next attempt), so this copy is dropped.
    if (body.awaitsAttempt !== undefined) {
      const awaited = await findAttempt(db, webhookId, body.awaitsAttempt);
      if (awaited && awaited.error !== IN_PROGRESS && awaited.error !== INTERRUPTED) {
        log("info", "duplicate callback message dropped", { webhookId, attempt: body.awaitsAttempt });
        message.ack();
        return;
      }
    }

    // D1 is the count of record: a retried queue message carries its original body, unchanged.
    const attempt = (await countAttempts(db, webhookId)) + 1;
    if (attempt > MAX_ATTEMPTS) {
      // The last attempt may still be in flight with another copy: its outcome settles the event.
      if ((await latestAttempt(db, webhookId))?.error === IN_PROGRESS) {
        await standAside(message, body, db, env);
        return;
      }
      await settleWithoutAttempt(db, webhookId, attempt, "attempts_exhausted");
      message.ack();
      return;
    }

    const secret = await loadSigningSecret(db, env, body.keyId);
    if (!secret) {
      log("warn", "callback signing key no longer exists", { webhookId, keyId: body.keyId });
      await settleWithoutAttempt(db, webhookId, attempt, "signing_key_gone");
      message.ack();
      return;
    }

    // Claim the attempt before sending: a second copy of this message processed at the same time finds
    // it taken and neither delivers nor schedules a second chain of retries.
    const claimedAt = Date.now();
    const claimed = await claimAttempt(db, {
      eventId: webhookId,
      attempt,
      at: toIso(claimedAt),
      freshAfter: toIso(claimedAt - CLAIM_TTL_SECONDS * 1000),
    });
    if (!claimed) {
      await standAside(message, body, db, env);
      return;
    }

    const result = await attemptDelivery(body, secret);
    const decision = decide(result.outcome, attempt, Date.now(), Math.random());
    const statusCode = result.outcome.kind === "response" ? result.outcome.status : null;
    const error = errorOf(result);
    await recordClaimedAttempt(
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

    if (decision.action !== "retry") {
      message.ack();
    } else if (decision.waitSeconds <= MAX_QUEUE_DELAY_SECONDS) {
      message.retry({ delaySeconds: decision.waitSeconds });
    } else {
      // A retried message keeps its body, so a wait in steps needs a new message that carries its due time.
      await scheduleInSteps(message, body, attempt + 1, decision.waitSeconds, env);
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
 * Another copy of this message holds the attempt. If it is still in progress, this copy comes back
 * once the claim would have expired, as a new message that names the attempt it waits for (a retried
 * message keeps its body): dropped then if that attempt has an outcome, taking over if its holder
 * stopped. If the attempt already has an outcome, or the event is settled, its holder carries on.
 */
async function standAside(message: Message<CallbackMessage>, body: CallbackMessage, db: Database, env: Env): Promise<void> {
  const held = await latestAttempt(db, body.webhookId);
  if (!held || held.error !== IN_PROGRESS) {
    log("info", "duplicate callback message dropped", { webhookId: body.webhookId, attempt: held?.attempt ?? null });
    message.ack();
    return;
  }
  log("info", "callback attempt held by another copy", { webhookId: body.webhookId, attempt: held.attempt });
  const notBefore = toIso(Date.now() + CLAIM_TTL_SECONDS * 1000);
  // If the new message cannot be sent, this copy comes back as it is: it may then claim a later
  // attempt, never the one held now.
  await replaceMessage(message, { ...body, awaitsAttempt: held.attempt, notBefore }, CLAIM_TTL_SECONDS, env, "callback stand-aside could not be enqueued");
}

/**
 * A retried queue message keeps its body, so a wait over the queue's maximum delay becomes a new
 * message that carries its due time (`notBefore`), and the current one is acked.
 */
async function scheduleInSteps(
  message: Message<CallbackMessage>,
  body: CallbackMessage,
  nextAttempt: number,
  waitSeconds: number,
  env: Env,
): Promise<void> {
  const notBefore = toIso(Date.now() + waitSeconds * 1000);
  const { awaitsAttempt: _, ...event } = body;
  // If the new message cannot be sent, this one waits the longest step it can: the next attempt comes a
  // little early (after 12 h) rather than at once.
  await replaceMessage(message, { ...event, attempt: nextAttempt, notBefore }, MAX_QUEUE_DELAY_SECONDS, env, "callback step could not be enqueued");
}

/**
 * Acks `message` once `next` is on the queue, delivered after `delaySeconds`. If `next` cannot be sent,
 * the current message is retried after the same delay instead, so the event is never left without one.
 */
async function replaceMessage(
  message: Message<CallbackMessage>,
  next: CallbackMessage,
  delaySeconds: number,
  env: Env,
  failure: string,
): Promise<void> {
  try {
    await env.CALLBACKS.send(next, { delaySeconds });
  } catch (error) {
    log("error", failure, { webhookId: next.webhookId, error: error instanceof Error ? error.name : "unknown" });
    message.retry({ delaySeconds });
    return;
  }
  message.ack();
}

/** Closes a pending event without a delivery attempt, with a record saying why. */
async function settleWithoutAttempt(db: Database, webhookId: string, attempt: number, error: string): Promise<void> {
  await recordAttempt(db, { eventId: webhookId, attempt, at: toIso(Date.now()), durationMs: 0, statusCode: null, error }, "failed");
}

/**
 * A message lands here when its processing kept failing until the queue gave up on it: the event is
 * marked failed with a record, so nothing disappears silently. When even that cannot be recorded (D1
 * still down), the message is retried with the same back-off; only after this queue's own max_retries
 * (about two more days) is it deleted, and the event stays pending: that last failure is logged at
 * error level with the webhook-id so an operator can close the event by hand.
 */
async function processDeadLetter(message: Message<CallbackMessage>, env: Env): Promise<void> {
  const body = message.body;
  if (!isCallbackMessage(body)) {
    log("error", "dead-lettered callback message without the expected shape", { messageId: message.id });
    message.ack();
    return;
  }
  const webhookId = body.webhookId;
  try {
    const db = database(env.DB);
    const event = await findCallbackEvent(db, webhookId);
    if (!event) {
      log("warn", "dead-lettered callback event no longer exists", { webhookId });
    } else if (event.state === "pending") {
      const attempt = (await countAttempts(db, webhookId)) + 1;
      await settleWithoutAttempt(db, webhookId, attempt, "dead_lettered");
      log("warn", "callback event dead-lettered and marked failed", { webhookId, sessionId: body.sessionId });
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
