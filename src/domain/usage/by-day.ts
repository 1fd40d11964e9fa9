// Counts per status for each UTC day of a window (docs/api-contract.md §Usage; the console's chart reads it).
// One grouped query: the database sends at most 367 days × 2 rows (raw and rollup), never the sessions.
import { sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/sqlite-core";
import * as z from "../../lib/lazy-zod";
import type { Database } from "../../db/client";
import type { ServiceContext } from "../../context/service-context";
import { usageDays, verificationSessions as sessions } from "../../db/schema";
import { DAY_MS, toIso } from "../../lib/time";
import { countFields, emptyCounts, windowConditions, type CountedRange } from "./totals";
import { addCounts, rawFrom, rawCounts, rollupConditions, rollupCounts } from "./rollup";
import type { Range } from "./range";

export const UsageByDay = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  days: z.array(z.extend(z.object({ date: z.iso.date() }), countFields)),
});

// created_at is ISO 8601 UTC text, so its first ten characters are the UTC day.
const dayOf = () => sql<string>`substr(${sessions.createdAt}, 1, 10)`;

// The summary's window conditions, so the two always agree; with them SQLite reads the window's
// entries of (account_id, status, created_at) alone, a covering index: no table row is fetched. The days
// older than the raw log come from the daily rollup, in the same query (./rollup.ts).
export function byDayQuery(db: Database, accountId: string, range: Range & { livemode?: boolean }) {
  const day = dayOf();
  return unionAll(
    db
      .select({ day, ...rawCounts() })
      .from(sessions)
      .where(windowConditions(accountId, range, rawFrom(range)))
      .groupBy(day),
    db
      .select({ day: usageDays.day, ...rollupCounts() })
      .from(usageDays)
      .where(rollupConditions(accountId, range))
      .groupBy(usageDays.day),
  );
}

/** Every UTC day the window touches, oldest first: the first and last may be partly outside it. */
export function daysOf(range: Range): string[] {
  const days: string[] = [];
  const last = range.to.slice(0, 10);
  for (let ms = Date.parse(range.from.slice(0, 10)); ; ms += DAY_MS) {
    const date = toIso(ms).slice(0, 10);
    days.push(date);
    if (date >= last) return days;
  }
}

/** Days without sessions are listed with zeros, so a chart or a spreadsheet needs no gap filling. */
export async function usageByDay({ db }: ServiceContext, accountId: string, range: CountedRange): Promise<z.infer<typeof UsageByDay>> {
  const perDay = new Map(daysOf(range).map((date) => [date, emptyCounts()]));
  for (const row of await byDayQuery(db, accountId, range)) {
    const counts = perDay.get(row.day);
    if (counts) addCounts(counts, row);
  }
  return { from: range.from, to: range.to, days: [...perDay].map(([date, counts]) => ({ date, ...counts })) };
}
