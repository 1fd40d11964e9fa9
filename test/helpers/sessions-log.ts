// Seeds the session log: each row inserted PENDING (through drizzle, every column the tests choose), then
// resolved by the resolution statements the session Durable Object uses; keeps the truth for the assertions.
import { verificationSessions, type SessionLogRow } from "../../src/db/schema";
import type { Database } from "../../src/db/client";
import { resolutionStatements } from "../../src/session/session-mirror";
import { newId } from "../../src/lib/ids";
import { addSeconds, toIso } from "../../src/lib/time";
import { SESSION_STATUSES } from "../../src/session/session-status";
import { dbOfAccount } from "./shards";

/** A PENDING session's log row as the object's open writes it (src/session/session-mirror.ts), through drizzle for the tests' own rows. */
export const insertSessionRow = (db: Database, row: typeof verificationSessions.$inferInsert) =>
  db.insert(verificationSessions).values(row);

export type SeedOptions = {
  accountId: string;
  keyIds: string[];
  count: number;
  /** Time of the newest session; older ones step back from it. */
  newest?: number;
  /** Gap between consecutive timestamps. */
  stepMs?: number;
  /** How many sessions share one created_at, so that paging must break ties on the id. */
  sameTime?: number;
  /** Which sessions are test sessions (opened with a test key), by their index; none by default. */
  testSession?: (index: number) => boolean;
};

const BATCH = 200;

/** Sessions in every status, cycling through the keys; returns the rows as stored, newest first. */
export async function seedSessions(options: SeedOptions): Promise<SessionLogRow[]> {
  const {
    accountId,
    keyIds,
    count,
    newest = Date.now() - 60_000,
    stepMs = 4 * 60 * 60 * 1000,
    sameTime = 3,
    testSession = () => false,
  } = options;
  const rows: SessionLogRow[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = toIso(newest - Math.floor(i / sameTime) * stepMs);
    const status = SESSION_STATUSES[i % SESSION_STATUSES.length]!;
    const expiresAt = addSeconds(createdAt, 1800);
    const resolvedAt = status === "PENDING" ? null : status === "EXPIRED" ? expiresAt : addSeconds(createdAt, 60);
    rows.push({
      id: newId("ses"),
      accountId,
      // Changes key every four rows so that every key sees every status.
      keyId: keyIds[Math.floor(i / SESSION_STATUSES.length) % keyIds.length]!,
      status,
      ageRequired: 13 + (i % 9),
      aboveAgeRequired: status === "APPROVED",
      receiptId: status === "APPROVED" || status === "DENIED" ? newId("rcpt") : null,
      createdAt,
      expiresAt,
      resolvedAt,
      livemode: !testSession(i),
      reference: null,
      metadata: null,
      acceptedAssurance: ["KYC_VERIFIED"],
      doubleBlind: false,
      assurance: status === "APPROVED" || status === "DENIED" ? "KYC_VERIFIED" : null,
      holderBinding: status === "APPROVED" ? "PASSWORD" : null,
      denialReason: status === "DENIED" ? "UNDER_AGE" : null,
    });
  }
  await writeSessions(rows);
  return rows.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
}

/** Opens each session as PENDING, then resolves it as the Durable Object would. */
async function writeSessions(rows: SessionLogRow[]) {
  if (rows.length === 0) return;
  const d = await dbOfAccount(rows[0]!.accountId);
  const opened = rows.map((row) =>
    insertSessionRow(d, {
      ...row,
      status: "PENDING",
      aboveAgeRequired: false,
      receiptId: null,
      resolvedAt: null,
      assurance: null,
      holderBinding: null,
      denialReason: null,
    }),
  );
  const resolved = rows.flatMap((row) =>
    row.status === "PENDING"
      ? []
      : resolutionStatements(
          d,
          {
            sessionId: row.id,
            status: row.status,
            aboveAgeRequired: row.aboveAgeRequired,
            receiptId: row.receiptId,
            resolvedAt: row.resolvedAt!,
            assurance: row.assurance,
            holderBinding: row.holderBinding,
            denialReason: row.denialReason,
          },
          null,
        ),
  );
  for (let i = 0; i < opened.length; i += BATCH) {
    const chunk = opened.slice(i, i + BATCH);
    await d.batch(chunk as [(typeof chunk)[number], ...typeof chunk]);
  }
  for (let i = 0; i < resolved.length; i += BATCH) await d.$client.batch(resolved.slice(i, i + BATCH));
}

/** A D1 binding that records every statement and its bound values, for asserting query sizes. */
export function recordingD1(d1: D1Database) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const wrapStatement = (statement: D1PreparedStatement, record: { sql: string; params: unknown[] }): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, property) {
        if (property === "bind") {
          return (...params: unknown[]) => {
            record.params = params;
            return wrapStatement(target.bind(...params), record);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          const record = { sql, params: [] as unknown[] };
          statements.push(record);
          return wrapStatement(target.prepare(sql), record);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, statements };
}
