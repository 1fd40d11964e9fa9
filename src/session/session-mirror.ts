// Mirrors each session into the D1 session log that usage reports read (verification_sessions). Only the
// session Durable Object writes status changes here; the log holds no end-user identity.
import { eq } from "drizzle-orm";
import type { CallbackMessage } from "./callback-message";
import type { Database } from "../db/client";
import { prepared } from "../db/prepared";
import { countOnce } from "../db/account-counter";
import type { ServiceContext } from "../context/service-context";
import { verificationSessions } from "../db/schema";
import type { ResolvedStatus } from "./session-status";
import type { Assurance, DenialReason, HolderBindingName } from "./assurance";

/** A new session's log row: the columns an open writes (the others are the resolution's). */
export type OpenedSessionRow = {
  id: string;
  accountId: string;
  keyId: string;
  ageRequired: number;
  createdAt: string;
  expiresAt: string;
  livemode: boolean;
  reference: string | null;
  metadata: Record<string, string> | null;
  acceptedAssurance: readonly Assurance[] | null;
  doubleBlind: boolean;
};

// Every open's one D1 batch, in D1's own prepared statements (src/db/prepared.ts): drizzle's builder cost
// an open some 65 µs of CPU for these three (docs/performance.md). Column names and encodings are the
// schema's (src/db/schema.ts: booleans as 0 and 1, JSON columns as JSON text); the open, poll, usage and
// limit tests read every column back.
const INSERT_OPENED =
  "INSERT INTO verification_sessions (id, account_id, key_id, status, age_required, above_age_required, receipt_id, created_at, expires_at, " +
  "resolved_at, livemode, reference, metadata, accepted_assurance, double_blind) VALUES (?, ?, ?, 'PENDING', ?, 0, NULL, ?, ?, NULL, ?, ?, ?, ?, ?)";
/** How many sessions the account has open (PENDING) now: read through the account and status index. */
const COUNT_PENDING = "SELECT count(*) AS pending FROM verification_sessions WHERE account_id = ? AND status = 'PENDING'";

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

/**
 * The open's batch: this minute's opens counter of the account (one added, the new count returned), the
 * session's log row, and the account's PENDING sessions counted with it. Results in that order:
 * `{ count }`, nothing, `{ pending }`.
 */
export function openStatements(
  db: Database,
  opens: { key: string; expiresAt: string },
  row: OpenedSessionRow,
): [D1PreparedStatement, D1PreparedStatement, D1PreparedStatement] {
  const d1 = db.$client;
  return [
    countOnce(d1, opens),
    prepared(d1, INSERT_OPENED).bind(
      row.id,
      row.accountId,
      row.keyId,
      row.ageRequired,
      row.createdAt,
      row.expiresAt,
      row.livemode ? 1 : 0,
      row.reference,
      json(row.metadata),
      json(row.acceptedAssurance),
      row.doubleBlind ? 1 : 0,
    ),
    prepared(d1, COUNT_PENDING).bind(row.accountId),
  ];
}

export const deleteSessionLog = (db: Database, sessionId: string) =>
  db.delete(verificationSessions).where(eq(verificationSessions.id, sessionId));

export type Resolution = {
  sessionId: string;
  status: ResolvedStatus;
  aboveAgeRequired: boolean;
  receiptId: string | null;
  resolvedAt: string;
  /** What the answer rested on. */
  assurance: Assurance | null;
  holderBinding: HolderBindingName | null;
  denialReason: DenialReason | null;
};

// The resolution's batch, prepared as the open's is (drizzle's builder cost every resolution some
// 40 µs of CPU for these two: docs/performance.md).
const RESOLVE =
  "UPDATE verification_sessions SET status = ?, above_age_required = ?, receipt_id = ?, resolved_at = ?, assurance = ?, holder_binding = ?, denial_reason = ? WHERE id = ?";
/** The event's pending row; a retried mirror write must not fail on the event it already wrote. */
const INSERT_EVENT =
  "INSERT INTO callback_events (id, session_id, type, state, created_at, updated_at) VALUES (?, ?, ?, 'pending', ?, ?) ON CONFLICT DO NOTHING";

/** The session's new status and its pending callback event (none: the status alone), written in one batch. */
export function resolutionStatements(db: Database, resolution: Resolution, event: CallbackMessage | null): D1PreparedStatement[] {
  const d1 = db.$client;
  const resolve = prepared(d1, RESOLVE).bind(
    resolution.status,
    resolution.aboveAgeRequired ? 1 : 0,
    resolution.receiptId,
    resolution.resolvedAt,
    resolution.assurance,
    resolution.holderBinding,
    resolution.denialReason,
    resolution.sessionId,
  );
  if (!event) return [resolve];
  return [
    resolve,
    prepared(d1, INSERT_EVENT).bind(event.webhookId, event.sessionId, event.type, resolution.resolvedAt, resolution.resolvedAt),
  ];
}

export async function sessionLogExists({ db }: ServiceContext, sessionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sessionId))
    .limit(1);
  return row !== undefined;
}
