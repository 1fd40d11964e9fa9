// A test file that reaches D1 through the Workers runtime's own module ("cloudflare:workers"), not through
// "cloudflare:test", still meets a migrated database: test/binding-free.ts must not list it, or the setup
// (test/apply-migrations.ts) skips its migrations and its tables are missing.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";

it("finds the migrated tables through cloudflare:workers' env", async () => {
  const db = (env as unknown as Record<string, D1Database>).DB!;
  const { results } = await db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'users'").all();
  expect(results).toEqual([{ name: "users" }]);
});
