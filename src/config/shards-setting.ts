// How many D1 shards the Worker has and which of them take new accounts (docs/operations.md): D1_SHARDS (shard 0
// is the DB binding, shard n the DB_n binding) and NEW_ACCOUNT_SHARDS (a comma list; default: all).
// Parsed once with the other settings (src/config/settings.ts); a production deployment whose setting
// is missing, malformed or names a shard with no binding refuses to serve (src/config/problems.ts).
import { MAX_SHARD } from "../lib/shard-tag";
import type { ConfigProblem } from "./problems";

export type ShardsSetting = {
  /** Shards 0 … count-1 are bound and serve; a development setting that breaks a rule serves shard 0 alone. */
  count: number;
  /** The shards a new account is placed on (at random among them). */
  newAccountShards: readonly number[];
  problems: readonly ConfigProblem[];
};

/** The binding name of shard n: DB for shard 0 (the database from before sharding), DB_n after it. */
export const shardBindingName = (shard: number): string => (shard === 0 ? "DB" : `DB_${shard}`);

const isD1 = (value: unknown): boolean =>
  typeof value === "object" && value !== null && typeof (value as { prepare?: unknown }).prepare === "function";

export function parseShardsSetting(env: Partial<Record<string, unknown>>): ShardsSetting {
  const problems: ConfigProblem[] = [];
  const raw = env.D1_SHARDS;
  let count = 1;
  if (typeof raw !== "string" || !/^[1-9]\d{0,4}$/.test(raw) || Number(raw) > MAX_SHARD + 1) {
    problems.push({ setting: "D1_SHARDS", problem: "must be a positive whole number of shards (at most 65536)" });
  } else {
    const missing = Array.from({ length: Number(raw) }, (_, shard) => shardBindingName(shard)).filter((name) => !isD1(env[name]));
    if (missing.length > 0) problems.push({ setting: "D1_SHARDS", problem: `names shards with no D1 binding (${missing.join(", ")})` });
    else count = Number(raw);
  }
  const all = Array.from({ length: count }, (_, shard) => shard);
  const listed = env.NEW_ACCOUNT_SHARDS;
  if (listed === undefined || listed === "") return { count, newAccountShards: all, problems };
  const numbers = typeof listed === "string" ? listed.split(",").map((part) => part.trim()) : [];
  const valid =
    numbers.length > 0 &&
    numbers.every((part) => /^\d{1,5}$/.test(part) && Number(part) < count) &&
    new Set(numbers.map(Number)).size === numbers.length;
  if (!valid) {
    problems.push({ setting: "NEW_ACCOUNT_SHARDS", problem: "must list distinct shard numbers below D1_SHARDS, separated by commas" });
    return { count, newAccountShards: all, problems };
  }
  return { count, newAccountShards: numbers.map(Number), problems };
}
