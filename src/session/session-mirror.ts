// Mirrors each session into the D1 session log that usage reports read (verification_sessions). Only the
// session Durable Object writes status changes here; the log holds no end-user identity.
import { and, count, eq } from "drizzle-orm";
import type { CallbackMessage } from "./callback-message";
import type { Database } from "../db/client";
import type { ServiceContext } from "../context/service-context";
import { callbackEvents, verificationSessions } from "../db/schema";
import type { ResolvedStatus } from "./session-status";
import type { Assurance, DenialReason, HolderBindingName } from "./assurance";

export const insertOpenedSession = (db: Database, row: typeof verificationSessions.$inferInsert) => db.insert(verificationSessions).values(row);

/** How many sessions the account has open (PENDING) now: read through the account and status index. */
export const pendingSessionsOf = (db: Database, accountId: string) =>
  db.select({ pending: count() }).from(verificationSessions).where(and(eq(verificationSessions.accountId, accountId), eq(verificationSessions.status, "PENDING")));

export const deleteSessionLog = (db: Database, sessionId: string) => db.delete(verificationSessions).where(eq(verificationSessions.id, sessionId));

export type Resolution = {
  sessionId: string;
  status: ResolvedStatus;
  aboveAgeRequired: boolean;
  receiptId: string | null;
  resolvedAt: string;
  /** What the answer rested on (absent: left as it is, for callers that only move a status). */
  assurance?: Assurance | null;
  holderBinding?: HolderBindingName | null;
  denialReason?: DenialReason | null;
};

/** The session's new status and its pending callback event, written in one batch. */
export function resolutionStatements(db: Database, resolution: Resolution, event: CallbackMessage | null) {
  const update = db
    .update(verificationSessions)
    .set({
      status: resolution.status,
      aboveAgeRequired: resolution.aboveAgeRequired,
      receiptId: resolution.receiptId,
      resolvedAt: resolution.resolvedAt,
      assurance: resolution.assurance,
      holderBinding: resolution.holderBinding,
      denialReason: resolution.denialReason,
    })
    .where(eq(verificationSessions.id, resolution.sessionId));
  if (!event) return [update] as const;
  const insertEvent = db.insert(callbackEvents).values({
    id: event.webhookId,
    sessionId: event.sessionId,
    type: event.type,
    state: "pending",
    createdAt: resolution.resolvedAt,
    updatedAt: resolution.resolvedAt,
  }).onConflictDoNothing(); // a retried mirror write must not fail on the event it already wrote
  return [update, insertEvent] as const;
}

export async function sessionLogExists({ db }: ServiceContext, sessionId: string): Promise<boolean> {
  const row = await db.query.verificationSessions.findFirst({ columns: { id: true }, where: eq(verificationSessions.id, sessionId) });
  return row !== undefined;
}
