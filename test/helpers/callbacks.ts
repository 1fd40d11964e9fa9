// Fixtures for callback delivery: a resolved session with its pending event, written through the same
// session-log statements the session Durable Object uses, and a way to run the real queue consumer.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import { eventTypeFor, type CallbackMessage } from "../../src/session/callback-message";
import { callbackAttempts, callbackEvents } from "../../src/db/schema";
import { resolutionStatements } from "../../src/session/session-mirror";
import worker from "../../src/index";
import { newId } from "../../src/lib/ids";
import { addSeconds, nowIso } from "../../src/lib/time";
import type { PolledSession } from "../../src/session/session-view";
import { dbHolding, dbOfAccount, shardOfAccount } from "./shards";
import { insertSessionRow } from "./sessions-log";
import { rowWhere } from "./rows";

export const CALLBACK_URL = "https://merchant.example/hooks/age";

export type ResolvedStatus = "APPROVED" | "DENIED" | "EXPIRED";

/** A session of `accountId` opened with `keyId`, resolved, with its pending callback event; returns the queue message. */
export async function seedResolvedSession(
  merchant: { account: { id: string }; keyId: string },
  options: { status?: ResolvedStatus; callbackUrl?: string } = {},
): Promise<CallbackMessage> {
  const status = options.status ?? "APPROVED";
  const sessionId = newId("ses");
  const createdAt = nowIso();
  const expiresAt = addSeconds(createdAt, 1800);
  const db = await dbOfAccount(merchant.account.id);
  await insertSessionRow(db, {
    id: sessionId,
    accountId: merchant.account.id,
    keyId: merchant.keyId,
    status: "PENDING",
    ageRequired: 18,
    aboveAgeRequired: false,
    receiptId: null,
    createdAt,
    expiresAt,
    resolvedAt: null,
  });
  const resolvedAt = status === "EXPIRED" ? expiresAt : nowIso();
  const receiptId = status === "EXPIRED" ? null : newId("rcpt");
  const data: PolledSession = {
    session_id: sessionId,
    status,
    above_age_required: status === "APPROVED",
    assurance: status === "EXPIRED" ? null : "KYC_VERIFIED",
    receipt_id: receiptId,
    age_required: 18,
    expires_at: expiresAt,
    resolved_at: resolvedAt,
    reference: null,
    metadata: null,
    livemode: true,
    holder_binding: status === "EXPIRED" ? null : "PASSWORD",
    denial_reason: status === "DENIED" ? "UNDER_AGE" : null,
    accepted_assurance: ["KYC_VERIFIED"],
    double_blind: false,
    receipt: null,
  };
  const message: CallbackMessage = {
    webhookId: newId("msg"),
    type: eventTypeFor(status),
    timestamp: resolvedAt,
    sessionId,
    keyId: merchant.keyId,
    callbackUrl: options.callbackUrl ?? CALLBACK_URL,
    data,
    attempt: 1,
    shard: await shardOfAccount(merchant.account.id),
  };
  const { assurance, holder_binding: holderBinding, denial_reason: denialReason } = data;
  await db.$client.batch(
    resolutionStatements(
      db,
      { sessionId, status, aboveAgeRequired: status === "APPROVED", receiptId, resolvedAt, assurance, holderBinding, denialReason },
      message,
    ),
  );
  return message;
}

let messageCounter = 0;

/**
 * Runs the Worker's own queue handler on one batch. `result` is what the runtime sees (acks, retries);
 * `retried` adds the delay each retry asked for, which getQueueResult does not report. `attempts` is the
 * queue's delivery count the messages carry (1 on a first delivery).
 */
export async function runQueue(queue: string, bodies: CallbackMessage[], bindings: Env = env, options: { attempts?: number } = {}) {
  const attempts = options.attempts ?? 1;
  const batch = createMessageBatch<CallbackMessage>(
    queue,
    bodies.map((body) => ({ id: `qmsg-${++messageCounter}`, timestamp: new Date(), attempts, body })),
  );
  const retried: { msgId: string; delaySeconds: number | undefined }[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    vi.spyOn(message, "retry").mockImplementation((options) => {
      retried.push({ msgId: message.id, delaySeconds: options?.delaySeconds });
      retry(options);
    });
  }
  const ctx = createExecutionContext();
  await (worker as ExportedHandler<Env>).queue!(batch as MessageBatch<unknown>, bindings, ctx);
  const result = await getQueueResult(batch, ctx);
  return { batch, result, retried };
}

export const runCallbacks = (bodies: CallbackMessage[], bindings?: Env) => runQueue("callbacks", bodies, bindings);

export async function eventState(webhookId: string) {
  const db = await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", webhookId);
  const event = await rowWhere(db, callbackEvents, eq(callbackEvents.id, webhookId));
  return event?.state;
}

export const attemptsOf = async (webhookId: string) =>
  (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", webhookId))
    .select()
    .from(callbackAttempts)
    .where(eq(callbackAttempts.eventId, webhookId))
    .orderBy(callbackAttempts.attempt);
