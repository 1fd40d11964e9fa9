// Counts per status over a window (docs/api-contract.md §Usage): the account total and a breakdown per key, revoked
// keys included. Both count the same rows, so they always agree: the raw log's, and the daily rollup's
// for the days older than the raw log (./rollup.ts).
import { and, asc, eq, gte, inArray, lte, type SQL } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import * as z from "../../lib/lazy-zod";
import type { Database } from "../../db/client";
import type { ServiceContext } from "../../context/service-context";
import { apiKeys, usageDays, verificationSessions as sessions } from "../../db/schema";
import { SESSION_STATUSES } from "../../session/session-status";
import type { Range } from "./range";
import { addCounts, rawFrom, rawCounts, rollupConditions, rollupCounts } from "./rollup";

/** Counts are per mode: live sessions by default, test sessions (opened with a test key) apart with mode=test. */
export type CountedRange = Range & { livemode: boolean };

/** The counts' fields, shared by the reports' schemas without building Counts (src/lib/lazy-zod.ts). */
export const countFields = {
  total: z.int(),
  approved: z.int(),
  denied: z.int(),
  expired: z.int(),
  pending: z.int(),
};
export const Counts = z.object(countFields);
export type Counts = z.infer<typeof Counts>;

export const UsageSummary = z.extend(z.object({ from: z.iso.datetime(), to: z.iso.datetime() }), countFields);

export const UsageByKey = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  keys: z.array(z.extend(z.object({ key_id: z.string(), name: z.string(), prefix: z.string() }), countFields)),
});

export const emptyCounts = (): Counts => ({ total: 0, approved: 0, denied: 0, expired: 0, pending: 0 });

// `status IN (all four)` looks redundant, but it lets SQLite walk (account_id, status, created_at) once
// per status with the window as a range, instead of every row of the account.
// `from` is raised to the raw log's boundary day in the counts (./rollup.ts): one lower bound, so
// SQLite keeps the covering index (two bounds on created_at steer it to another index).
export const windowConditions = (accountId: string, range: Range & { livemode?: boolean }, from: SQL | string = range.from) =>
  and(
    eq(sessions.accountId, accountId),
    inArray(sessions.status, [...SESSION_STATUSES]),
    gte(sessions.createdAt, from),
    lte(sessions.createdAt, range.to),
    eq(sessions.livemode, range.livemode ?? true),
  );

// Each report is one query: the raw log from the boundary day on, the daily rollup before it (./rollup.ts).
export const summaryQuery = (db: Database, accountId: string, range: Range & { livemode?: boolean }) =>
  unionAll(
    db
      .select(rawCounts())
      .from(sessions)
      .where(windowConditions(accountId, range, rawFrom(range))),
    db.select(rollupCounts()).from(usageDays).where(rollupConditions(accountId, range)),
  );

export const byKeyQuery = (db: Database, accountId: string, range: Range & { livemode?: boolean }) =>
  unionAll(
    db
      .select({ keyId: sessions.keyId, ...rawCounts() })
      .from(sessions)
      .where(windowConditions(accountId, range, rawFrom(range)))
      .groupBy(sessions.keyId),
    db
      .select({ keyId: usageDays.keyId, ...rollupCounts() })
      .from(usageDays)
      .where(rollupConditions(accountId, range))
      .groupBy(usageDays.keyId),
  );

export async function usageSummary({ db }: ServiceContext, accountId: string, range: CountedRange): Promise<z.infer<typeof UsageSummary>> {
  const counts = emptyCounts();
  for (const row of await summaryQuery(db, accountId, range)) addCounts(counts, row);
  return { from: range.from, to: range.to, ...counts };
}

export async function usageByKey({ db }: ServiceContext, accountId: string, range: CountedRange): Promise<z.infer<typeof UsageByKey>> {
  const [keys, rows] = await db.batch([
    // Oldest first: a stable order that does not move when a key is created or revoked.
    db
      .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix })
      .from(apiKeys)
      .where(eq(apiKeys.userId, accountId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id)),
    byKeyQuery(db, accountId, range),
  ]);
  const perKey = new Map(keys.map((key) => [key.id, emptyCounts()]));
  for (const row of rows) {
    const counts = perKey.get(row.keyId);
    if (counts) addCounts(counts, row);
  }
  return {
    from: range.from,
    to: range.to,
    keys: keys.map((key) => ({ key_id: key.id, name: key.name, prefix: key.prefix, ...perKey.get(key.id)! })),
  };
}
