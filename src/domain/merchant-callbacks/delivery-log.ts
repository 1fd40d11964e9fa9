// The merchant's read of callback delivery: each callback event of one of its sessions with every
// attempt to deliver it (written by the session Durable Object and the queue consumer, src/callbacks/).
import { and, asc, eq, inArray } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import type { Database } from "../../db/client";
import { callbackAttempts, callbackEvents, verificationSessions } from "../../db/schema";
import { notFound } from "../../errors";
import { isIdOf } from "../../lib/ids";

export const CallbackAttemptView = z.object({
  at: z.iso.datetime(),
  duration_ms: z.int(),
  status_code: z.nullable(z.int()),
  error: z.nullable(z.string()),
});

export const CallbackEventView = z.object({
  webhook_id: z.string(),
  type: z.string(),
  state: z.enum(["pending", "delivered", "failed"]),
  attempts: z.array(CallbackAttemptView),
});
export type CallbackEventView = z.infer<typeof CallbackEventView>;

/** The callback events of one of the account's own sessions; any other session is 404. */
export async function listSessionCallbacks(db: Database, accountId: string, sessionId: string): Promise<CallbackEventView[]> {
  if (!isIdOf("ses", sessionId)) throw notFound("Session");
  const [session] = await db
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(and(eq(verificationSessions.id, sessionId), eq(verificationSessions.accountId, accountId)))
    .limit(1);
  if (!session) throw notFound("Session");
  const events = await db
    .select()
    .from(callbackEvents)
    .where(eq(callbackEvents.sessionId, sessionId))
    .orderBy(asc(callbackEvents.createdAt), asc(callbackEvents.id));
  if (events.length === 0) return [];
  const attempts = await db
    .select()
    .from(callbackAttempts)
    .where(
      inArray(
        callbackAttempts.eventId,
        events.map((e) => e.id),
      ),
    )
    .orderBy(asc(callbackAttempts.attempt));
  return events.map((event) => ({
    webhook_id: event.id,
    type: event.type,
    state: event.state,
    attempts: attempts
      .filter((a) => a.eventId === event.id)
      .map((a) => ({ at: a.at, duration_ms: a.durationMs, status_code: a.statusCode, error: a.error })),
  }));
}
