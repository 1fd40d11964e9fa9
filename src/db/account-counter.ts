// One use of a per-account counter (account_counters; the limits: src/domain/limits/account-limits.ts): a
// statement for someone's db.batch, so that counting rides in the same round trip as the work it guards
// (countAccountUse's limits; the session object's log write when a session opens, prepared: countOnce).
// The answerer's completion counters have their own, conditional on the account: src/domain/verification/answerer.ts.
import { sql } from "drizzle-orm";
import type { Database } from "./client";
import { prepared } from "./prepared";
import { accountCounters } from "./schema";

/** Adds one to the counter, returning the new count: an UPSERT … RETURNING for a db.batch. */
export function upsertCounter(db: Database, { key, expiresAt }: { key: string; expiresAt: string }) {
  return db
    .insert(accountCounters)
    .values({ key, count: 1, expiresAt })
    .onConflictDoUpdate({ target: accountCounters.key, set: { count: sql`${accountCounters.count} + 1` } })
    .returning({ count: accountCounters.count });
}

/** upsertCounter as D1's own prepared statement (src/db/prepared.ts), for the open's hot batch. */
const COUNT_ONCE =
  "INSERT INTO account_counters (key, count, expires_at) VALUES (?, 1, ?) " +
  "ON CONFLICT (key) DO UPDATE SET count = account_counters.count + 1 RETURNING count";
export const countOnce = (d1: D1Database, { key, expiresAt }: { key: string; expiresAt: string }) =>
  prepared(d1, COUNT_ONCE).bind(key, expiresAt);
