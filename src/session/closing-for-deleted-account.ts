// Closing the pending sessions of a deleted merchant account in bounded steps (docs/limits.md): the deletion
// closes the first ones itself and hands the rest to the mail queue (which also carries the provider's
// applicant deletions), 100 session ids a message, so deleting an account with 10,000 pending sessions
// never makes 10,000 Durable Object calls in one request. A session not yet closed when its account is
// gone cannot reach anyone: its log row is gone, so its resolution or expiry forgets it (its outbox
// finds no log), and no callback is signed (the key's secrets went with the account).
import type { ServiceContext } from "../context/service-context";
import { log } from "../lib/log";
import { sessionStub } from "./session-stub";

/** Sessions the deleting request closes itself; the rest go through the queue. */
export const CLOSED_IN_REQUEST = 50;
/** Session ids per queue message (each message's consumer makes that many Durable Object calls). */
export const SESSIONS_PER_MESSAGE = 100;
/** Messages per sendBatch call (the Queues limit). */
const MESSAGES_PER_SEND = 100;

export type SessionClosingMessage = { type: "close-sessions"; sessionIds: string[] };

export const isSessionClosingMessage = (body: unknown): body is SessionClosingMessage => {
  const m = body as Partial<SessionClosingMessage> | null;
  return typeof m === "object" && m !== null && m.type === "close-sessions" && Array.isArray(m.sessionIds);
};

const close = (ctx: ServiceContext, ids: readonly string[]) => Promise.all(ids.map((id) => sessionStub(ctx, id).closeForDeletedAccount()));

/** Closes the first sessions now and enqueues the others; call it before the account's rows are deleted. */
export async function closeSessionsOfDeletedAccount(ctx: ServiceContext, sessionIds: readonly string[]): Promise<void> {
  await close(ctx, sessionIds.slice(0, CLOSED_IN_REQUEST));
  const rest = sessionIds.slice(CLOSED_IN_REQUEST);
  const messages: { body: SessionClosingMessage }[] = [];
  for (let i = 0; i < rest.length; i += SESSIONS_PER_MESSAGE)
    messages.push({ body: { type: "close-sessions", sessionIds: rest.slice(i, i + SESSIONS_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += MESSAGES_PER_SEND) await ctx.mailQueue.sendBatch(messages.slice(i, i + MESSAGES_PER_SEND));
}

/** The queue's side: one message's sessions closed, or the message retried (closing twice is harmless). */
export async function handleSessionClosing(message: Message<unknown>, ctx: ServiceContext): Promise<void> {
  const { sessionIds } = message.body as SessionClosingMessage;
  try {
    await close(ctx, sessionIds);
    message.ack();
  } catch (error) {
    log("warn", "closing a deleted account's sessions failed; retrying", {
      sessions: sessionIds.length,
      error: error instanceof Error ? error.name : "unknown",
    });
    message.retry({ delaySeconds: 30 });
  }
}

/** Dead-lettered: its sessions forget themselves at their expiry (their log is gone); logged, not retried. */
export function handleDeadLetteredSessionClosing(message: Message<unknown>): void {
  log("error", "a deleted account's sessions were not closed through the queue; they forget themselves at expiry", {
    sessions: (message.body as SessionClosingMessage).sessionIds.length,
  });
  message.ack();
}
