// Redelivery: a merchant asks for its session's latest callback event again, now. It goes out as a new
// attempt of the same event (same webhook-id, so receivers de-duplicate) through the ordinary queue
// consumer, which claims and records it like any other attempt.
import { and, desc, eq, sql } from "drizzle-orm";
import { callbackAttempts, callbackEvents, verificationSessions } from "../../db/schema";
import { ApiError, notFound } from "../../errors";
import { isIdOf } from "../../lib/ids";
import { nowIso } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";
import { sessionStub } from "../../session/session-stub";

export type Redelivery = { webhook_id: string; type: string; state: "pending" };

/** `admit` is the caller's rate limit: taken once the event is found, before anything changes. */
export async function redeliverLatestCallback(
  ctx: ServiceContext,
  accountId: string,
  sessionId: string,
  admit: () => Promise<void>,
): Promise<Redelivery> {
  if (!isIdOf("ses", sessionId)) throw notFound("Session");
  // One read: the session (only the account's own), its latest event and that event's attempt count.
  const [row] = await ctx.db
    .select({
      eventId: callbackEvents.id,
      type: callbackEvents.type,
      state: callbackEvents.state,
      attempts: sql<number>`(select count(*) from ${callbackAttempts} where ${callbackAttempts.eventId} = ${callbackEvents.id})`,
    })
    .from(verificationSessions)
    .leftJoin(callbackEvents, eq(callbackEvents.sessionId, verificationSessions.id))
    .where(and(eq(verificationSessions.id, sessionId), eq(verificationSessions.accountId, accountId)))
    .orderBy(desc(callbackEvents.createdAt), desc(callbackEvents.id))
    .limit(1);
  if (!row) throw notFound("Session");
  if (!row.eventId || !row.state || !row.type) {
    throw new ApiError("NOTHING_TO_REDELIVER", { message: "This session is not resolved yet: it has no callback event to send again." });
  }
  await admit();
  const at = nowIso();
  // Pending first, so the consumer can claim the new attempt. A settled event is sent once, off the
  // schedule; a pending one keeps its schedule, this attempt only comes sooner.
  await ctx.db.update(callbackEvents).set({ state: "pending", updatedAt: at }).where(eq(callbackEvents.id, row.eventId));
  const sent = await sessionStub(ctx, sessionId).resendCallback(row.eventId, row.attempts + 1, { redelivery: row.state !== "pending" });
  if (!sent) {
    // The session's object forgot the callback address after its retention: put the state back.
    await ctx.db
      .update(callbackEvents)
      .set({ state: row.state })
      .where(and(eq(callbackEvents.id, row.eventId), eq(callbackEvents.state, "pending"), eq(callbackEvents.updatedAt, at)));
    throw new ApiError("NOTHING_TO_REDELIVER", {
      message: "This session's callback is past its retention and can no longer be sent again.",
    });
  }
  return { webhook_id: row.eventId, type: row.type, state: "pending" };
}
