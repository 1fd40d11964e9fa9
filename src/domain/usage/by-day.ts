// Counts per status for each UTC day of a window (CONTRACT §8 is silent; the console's chart reads it).
// One grouped query: the database sends at most 367 days × 4 statuses rows, never the sessions.
import { count, sql } from "drizzle-orm";
import * as z from "zod";
import type { Database } from "../../db/client";
import type { ServiceContext } from "../../context/service-context";
import { verificationSessions as sessions } from "../../db/schema";
import { toIso } from "../../lib/time";
import { addCount, Counts, emptyCounts, windowConditions, type CountedRange } from "./totals";
import type { Range } from "./range";

const DAY_MS = 24 * 60 * 60 * 1000;

export const UsageByDay = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  days: z.array(z.object({ date: z.iso.date() }).extend(Counts.shape)),
});

// created_at is ISO 8601 UTC text, so its first ten characters are the UTC day.
const day = sql<string>`substr(${sessions.createdAt}, 1, 10)`;

// The summary's window conditions, so the two always agree; with them SQLite reads the window's
// entries of (account_id, status, created_at) alone, a covering index: no table row is fetched.
export const byDayQuery = (db: Database, accountId: string, range: Range & { livemode?: boolean }) =>
  db
    .select({ day, status: sessions.status, n: count() })
    .from(sessions)
    .where(windowConditions(accountId, range))
    .groupBy(day, sessions.status);

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
    if (counts) addCount(counts, row.status, row.n);
  }
  return { from: range.from, to: range.to, days: [...perDay].map(([date, counts]) => ({ date, ...counts })) };
}
