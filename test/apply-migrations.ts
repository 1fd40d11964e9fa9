import { expect, inject } from "vitest";
import { shardBindingName } from "../src/config/shards-setting";

// Setup files run before each test file; applying is idempotent. Every D1 shard the tests run
// (D1_SHARDS in wrangler.toml: DB, DB_1, …) gets the same migrations, as `npm run db:migrate` does.
// A file that reaches no binding (test/binding-free.ts) skips this: importing "cloudflare:test" would
// load the whole Worker into its module graph, most of a test file's set-up time, for nothing it uses.
if (!inject("bindingFreeTests").includes(expect.getState().testPath!)) {
  const { applyD1Migrations, env } = await import("cloudflare:test");
  const bindings = env as unknown as Record<string, D1Database>;
  for (let shard = 0; shard < Number(env.D1_SHARDS); shard++)
    await applyD1Migrations(bindings[shardBindingName(shard)]!, env.TEST_MIGRATIONS);
}
