// The session log as a merchant reads it (docs/api-contract.md §Usage): newest first, keyset-paged on (created_at, id)
// so that sessions opened while a client pages never shift a page. Every query is scoped to the account.
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import type { Database } from "../../db/client";
import type { ServiceContext } from "../../context/service-context";
import { apiKeys, type KEY_MODES, verificationSessions as sessions, type SessionLogRow } from "../../db/schema";
import { SESSION_STATUSES, type SessionStatus } from "../../session/session-status";
import { ASSURANCES, DENIAL_REASONS, HOLDER_BINDINGS } from "../../session/assurance";
import { decodeCursor, encodeCursor, type CursorBinding, type LogPosition } from "./cursor";
import { resolveRange, type Range } from "./range";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

export const UsageItem = z.object({
  session_id: z.string(),
  key_id: z.string(),
  status: z.enum(SESSION_STATUSES),
  age_required: z.int(),
  above_age_required: z.boolean(),
  created_at: z.iso.datetime(),
  resolved_at: z.nullable(z.iso.datetime()),
  expires_at: z.iso.datetime(),
  livemode: z.boolean().check(z.describe(OPENAPI_METADATA ? "false for a session opened with a test key." : "")),
  reference: z.nullable(z.string()).check(z.describe(OPENAPI_METADATA ? "The merchant's reference from the open request." : "")),
  metadata: z
    .nullable(z.record(z.string(), z.string()))
    .check(z.describe(OPENAPI_METADATA ? "The merchant's metadata from the open request." : "")),
  assurance: z
    .nullable(z.enum(ASSURANCES))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "What the answer rested on, as in the polled session; null while unresolved, on expiry, for a first-screen decline."
          : "",
      ),
    ),
  holder_binding: z
    .nullable(z.enum(HOLDER_BINDINGS))
    .check(z.describe(OPENAPI_METADATA ? "How the answer was bound to the person, as in the polled session." : "")),
  denial_reason: z.nullable(z.enum(DENIAL_REASONS)).check(z.describe(OPENAPI_METADATA ? "UNDER_AGE or DECLINED; null unless DENIED." : "")),
  accepted_assurance: z.array(z.enum(ASSURANCES)).check(z.describe(OPENAPI_METADATA ? "The ways the open request accepted." : "")),
  double_blind: z.boolean().check(z.describe(OPENAPI_METADATA ? "The open request asked for a double-blind session." : "")),
});
export type UsageItem = z.infer<typeof UsageItem>;

export const UsagePage = z.object({
  items: z.array(UsageItem),
  next_cursor: z
    .nullable(z.string())
    .check(z.describe(OPENAPI_METADATA ? "Opaque; pass it back as `cursor` with the same filters. null on the last page." : "")),
});

/** The filters of the log and the export, with the window already resolved. */
type KeyMode = (typeof KEY_MODES)[number];

export type LogFilter = Range & { status?: SessionStatus; keyId?: string; mode?: KeyMode };

export const toUsageItem = (row: SessionLogRow): UsageItem => ({
  session_id: row.id,
  key_id: row.keyId,
  status: row.status,
  age_required: row.ageRequired,
  above_age_required: row.aboveAgeRequired,
  created_at: row.createdAt,
  resolved_at: row.resolvedAt,
  expires_at: row.expiresAt,
  livemode: row.livemode,
  reference: row.reference,
  metadata: row.metadata,
  // A row resolved before 1.2.0 has no assurance stored: its approvals were all an account's.
  assurance: row.assurance ?? (row.status === "APPROVED" ? "KYC_VERIFIED" : null),
  holder_binding: row.holderBinding,
  denial_reason: row.status === "DENIED" ? row.denialReason : null,
  // Rows written before 1.2.0 accepted the one way there was.
  accepted_assurance: row.acceptedAssurance ?? ["KYC_VERIFIED"],
  double_blind: row.doubleBlind,
});

function logConditions(accountId: string, filter: LogFilter, after?: LogPosition): SQL | undefined {
  const parts: SQL[] = [eq(sessions.accountId, accountId), gte(sessions.createdAt, filter.from), lte(sessions.createdAt, filter.to)];
  if (filter.status) parts.push(eq(sessions.status, filter.status));
  if (filter.keyId) parts.push(eq(sessions.keyId, filter.keyId));
  if (filter.mode) parts.push(eq(sessions.livemode, filter.mode === "live"));
  // A row-value comparison walks the (…, created_at, id) indexes from the cursor on, newest first.
  if (after) parts.push(sql`(${sessions.createdAt}, ${sessions.id}) < (${after.createdAt}, ${after.id})`);
  return and(...parts);
}

/** One page of the log, newest first. Exported so that the query-plan test checks this exact query. */
export const logPageQuery = (db: Database, accountId: string, filter: LogFilter, limit: number, after?: LogPosition) =>
  db
    .select()
    .from(sessions)
    .where(logConditions(accountId, filter, after))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(limit);

/** The export's page: the log's rows with the name of their key (revoked keys keep their name). */
export const exportPageQuery = (db: Database, accountId: string, filter: LogFilter, limit: number, after?: LogPosition) =>
  db
    .select({ session: sessions, keyName: apiKeys.name })
    .from(sessions)
    .leftJoin(apiKeys, eq(apiKeys.id, sessions.keyId))
    .where(logConditions(accountId, filter, after))
    .orderBy(desc(sessions.createdAt), desc(sessions.id))
    .limit(limit);

export type LogQuery = {
  status?: SessionStatus;
  key_id?: string;
  mode?: KeyMode;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
};

const bindingOf = (accountId: string, query: LogQuery): CursorBinding => ({
  accountId,
  status: query.status,
  keyId: query.key_id,
  mode: query.mode,
  from: query.from,
  to: query.to,
});

export async function listSessionLog({ db, settings }: ServiceContext, accountId: string, query: LogQuery) {
  const jwtSecret = secret(settings, "JWT_SECRET");
  const binding = bindingOf(accountId, query);
  // A cursor brings the window of the first page with it, so a default `to` = now does not move.
  const { position, range } = query.cursor
    ? await decodeCursor(jwtSecret, binding, query.cursor)
    : { position: undefined, range: resolveRange(query) };
  const filter: LogFilter = { ...range, status: query.status, keyId: query.key_id, mode: query.mode };
  // One row more than asked tells whether another page exists without a count query.
  const rows = await logPageQuery(db, accountId, filter, query.limit + 1, position);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const next_cursor =
    rows.length > query.limit && last ? await encodeCursor(jwtSecret, binding, { createdAt: last.createdAt, id: last.id }, range) : null;
  return { items: page.map(toUsageItem), next_cursor };
}
