// The D1 shards the tests run (D1_SHARDS = 2 in wrangler.toml): which binding holds an account's rows.
// Decodes with the service's own tag reader (src/lib/shard-tag.ts), so a test reads where the Worker
// wrote; the tests of the routing itself place accounts on a shard they chose and check that instead.
import { env } from "cloudflare:test";
import { shardBindingName } from "../../src/config/shards-setting";
import { database } from "../../src/db/client";
import { shardOfValue } from "../../src/lib/shard-tag";

export const shardCount = () => Number(env.D1_SHARDS);

/** Every shard's binding, by number: DB, DB_1, … */
export const shardBindings = (bindings: Env = env): D1Database[] =>
  Array.from({ length: shardCount() }, (_, shard) => (bindings as unknown as Record<string, D1Database>)[shardBindingName(shard)]!);

const bounded = (shard: number) => (shard < shardCount() ? shard : 0);

export const shardOfAccount = async (accountId: string) => bounded(await shardOfValue(accountId, 24));
export const shardOfKey = async (apiKey: string) => bounded(await shardOfValue(apiKey, 43));

/** The D1 binding (raw) and the drizzle database holding an account's rows. */
export const d1OfAccount = async (accountId: string) => shardBindings()[await shardOfAccount(accountId)]!;
export const dbOfAccount = async (accountId: string) => database(await d1OfAccount(accountId));
export const d1OfKey = async (apiKey: string) => shardBindings()[await shardOfKey(apiKey)]!;
export const dbOfKey = async (apiKey: string) => database(await d1OfKey(apiKey));

/** Runs the query on every shard and concatenates the rows (tests that look for a row wherever it is). */
export async function allShards<T>(sql: string, ...params: unknown[]): Promise<T[]> {
  const results = await Promise.all(
    shardBindings().map((d1) =>
      d1
        .prepare(sql)
        .bind(...params)
        .all<T>(),
    ),
  );
  return results.flatMap((result) => result.results);
}

/**
 * The drizzle database holding a session's log row: the shard where the row is (its merchant's). A
 * session with no row anywhere reads shard 0; assert absence through its merchant's shard instead.
 */
export const dbOfSession = (sessionId: string) => dbHolding("SELECT 1 FROM verification_sessions WHERE id = ?", sessionId);

/** The drizzle database of the first shard where the query finds a row; shard 0 when none does. */
export async function dbHolding(sql: string, ...params: unknown[]) {
  const bindings = shardBindings();
  for (const d1 of bindings) {
    if (
      await d1
        .prepare(sql)
        .bind(...params)
        .first()
    )
      return database(d1);
  }
  return database(bindings[0]!);
}

/** The total of a count(*) query over every shard. */
export async function countAllShards(sql: string, ...params: unknown[]): Promise<number> {
  const rows = await allShards<{ n: number }>(sql, ...params);
  return rows.reduce((sum, row) => sum + row.n, 0);
}
