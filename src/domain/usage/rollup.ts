// Where the usage counts come from (docs/capacity.md): the daily rollup (usage_days, folded by
// src/maintenance/fold-usage.ts) for the days before the raw log's first whole day, the raw session log
// from that day on. Each report is one query, a UNION ALL of a raw branch and a rollup branch that
// return the same columns, so it stays one D1 round trip; the two branches split the window at one
// boundary day, so no session is counted twice or missed.
//
// The boundary is computed inside the query from the database itself, never from the settings or the
// clock: the earlier of the day after the last folded day (usage_fold) and the day after the oldest
// raw row's day. Every day before it is folded; every day from it on still has all its raw rows (the
// retention deletes whole days' prefixes, and only of folded days, oldest first). Before any fold it is
// 0000-01-01: every day is read raw. Days read from the rollup are counted whole: a `from` or `to`
// with a time of day inside one counts that whole day (they are older than the raw log).
import { and, eq, gte, lt, lte, sql, type SQL } from "drizzle-orm";
import { usageDays, verificationSessions as sessions } from "../../db/schema";
import type { Range } from "./range";

export const rawLogFrom = sql<string>`min(
  coalesce((SELECT date(folded_through, '+1 day') FROM usage_fold WHERE id = 1), '0000-01-01'),
  coalesce((SELECT date(min(created_at), '+1 day') FROM verification_sessions), '9999-12-31'))`;

/** The raw branch's lower bound: the window's start, or the boundary day when that is later. */
export const rawFrom = (range: Range): SQL => sql`max(${range.from}, ${rawLogFrom})`;

/** The per-status sums of the raw branch, as columns, to line up with the rollup's. Functions, so that
 * the tables are built on first use (src/db/schema.ts). */
export const rawCounts = () => ({
  approved: sql<number>`sum(${sessions.status} = 'APPROVED')`,
  denied: sql<number>`sum(${sessions.status} = 'DENIED')`,
  expired: sql<number>`sum(${sessions.status} = 'EXPIRED')`,
  pending: sql<number>`sum(${sessions.status} = 'PENDING')`,
});

export const rollupCounts = () => ({
  approved: sql<number>`sum(${usageDays.approved})`,
  denied: sql<number>`sum(${usageDays.denied})`,
  expired: sql<number>`sum(${usageDays.expired})`,
  pending: sql<number>`sum(${usageDays.pending})`,
});

/** The rollup rows of the account, mode and window's days before the boundary (a primary-key range). */
export const rollupConditions = (accountId: string, range: Range & { livemode?: boolean }) =>
  and(
    eq(usageDays.accountId, accountId),
    eq(usageDays.livemode, range.livemode ?? true),
    gte(usageDays.day, range.from.slice(0, 10)),
    lte(usageDays.day, range.to.slice(0, 10)),
    lt(usageDays.day, rawLogFrom),
  );

type CountColumns = { approved: number | null; denied: number | null; expired: number | null; pending: number | null };
/** The reports' counts (./totals.ts `Counts`), named here by shape: totals.ts imports this file. */
type Counts = { total: number; approved: number; denied: number; expired: number; pending: number };

/** Adds one row of either branch (sums are null when a branch matched nothing). */
export function addCounts(counts: Counts, row: CountColumns) {
  for (const status of ["approved", "denied", "expired", "pending"] as const) {
    const n = row[status] ?? 0;
    counts[status] += n;
    counts.total += n;
  }
}
