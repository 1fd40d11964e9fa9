// The capacity model's per-session figures, measured (docs/capacity.md and
// docs/operations.md quote them with this file as their source): typical sessions driven through the real
// routes (open, the end user's view, an approval, two polls, the callback delivered by the first attempt)
// while every D1 call of the isolate, the Worker's and the session objects' alike, is counted; and the
// bytes the database grows by per session and per usage-rollup row, from D1's own `size_after` (workerd's
// D1 refuses `dbstat` and `PRAGMA page_count`). The bounds are generous: they guard the model's figures,
// they do not pin them. `npx vitest run --project workers test/capacity --silent=false` prints the figures.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { newId } from "../../src/lib/ids";
import { call } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, poll } from "../helpers/sessions";

const HOOK = "https://merchant.example.com/hooks/age";
const SESSIONS = 60;
const ROLLUP_ROWS = 1200;

type Traffic = { writes: number; reads: number; statements: number };

const WRITE = /^\s*(insert|update|delete|replace)\b/i;

/**
 * Counts D1 round trips on the shared binding (the test's `env` is the one the Worker and the session
 * objects run with): a statement run alone or a batch is one; it is a write transaction when any of its
 * statements writes. Replaced on the binding object itself, so drizzle's clients see it too.
 */
function countD1(d1: D1Database) {
  const traffic: Traffic = { writes: 0, reads: 0, statements: 0 };
  const sqlOf = new WeakMap<object, string>();
  const target = d1 as unknown as { prepare: D1Database["prepare"]; batch: D1Database["batch"] };
  const prepare = d1.prepare.bind(d1);
  const batch = d1.batch.bind(d1);
  const count = (sqls: string[]) => {
    traffic.statements += sqls.length;
    if (sqls.some((sql) => WRITE.test(sql))) traffic.writes++;
    else traffic.reads++;
  };
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(inner, property) {
        const value = Reflect.get(inner, property, inner);
        if (typeof value !== "function") return value;
        if (property === "bind") return (...params: unknown[]) => wrap(value.apply(inner, params), sql);
        if (["first", "all", "run", "raw"].includes(String(property))) {
          return (...args: unknown[]) => {
            count([sql]);
            return value.apply(inner, args);
          };
        }
        return value.bind(inner);
      },
    });
    sqlOf.set(proxy, sql);
    return proxy;
  };
  target.prepare = (sql: string) => wrap(prepare(sql), sql);
  target.batch = (statements: D1PreparedStatement[]) => {
    count(statements.map((statement) => sqlOf.get(statement) ?? ""));
    return batch(statements);
  };
  const restore = () => {
    delete (target as Partial<typeof target>).prepare;
    delete (target as Partial<typeof target>).batch;
  };
  return { traffic, restore, prepare };
}

/** The database's size in bytes as D1 reports it after a statement (its pages in use). */
const databaseBytes = async () => (await env.DB.prepare("SELECT 1").run()).meta.size_after as number;

afterEach(() => vi.restoreAllMocks());

describe("per-session figures for the capacity model", { timeout: 180_000 }, () => {
  it("a typical session costs a few D1 write transactions and reads, and under 3 KB of D1", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    // Counting from the start: a statement the Worker prepares once and keeps (the key lookup) is then
    // one of the counted ones.
    const counter = countD1(env.DB);
    // Both on shard 0, the binding counted: every D1 call of the session lands there.
    const merchant = await seedMerchant("default key", "live", { shard: 0 });
    const user = await seedEndUser("1990-01-01", { shard: 0 });
    // One session first: the key's once-a-minute stamp and the account's first counters are not per session.
    const warm = await openSession(merchant.apiKey, 18, HOOK);
    await complete(user.token, warm.session_id, warm.nonce);
    await new Promise((resolve) => setTimeout(resolve, 200));
    Object.assign(counter.traffic, { writes: 0, reads: 0, statements: 0 });
    const bytesBefore = await databaseBytes();
    const opened: string[] = [];
    // Per step, as the requests see it; the first attempt's writes run in the object after the approval's
    // answer and land in whichever step is running then (the total is exact).
    const steps: Record<string, Traffic> = {};
    const step = async (name: string, run: () => Promise<unknown>) => {
      const before = { ...counter.traffic };
      await run();
      const sum = (steps[name] ??= { writes: 0, reads: 0, statements: 0 });
      for (const k of ["writes", "reads", "statements"] as const) sum[k] += counter.traffic[k] - before[k];
    };
    // Read past the counter: the test's own waiting is not the session's traffic.
    const deliveredCount = async () =>
      (await counter
        .prepare(`SELECT count(*) AS n FROM callback_events WHERE state = 'delivered' AND session_id IN (SELECT value FROM json_each(?))`)
        .bind(JSON.stringify(opened))
        .first<{ n: number }>())!.n;
    try {
      for (let i = 0; i < SESSIONS; i++) {
        let session!: Awaited<ReturnType<typeof openSession>>;
        await step("open", async () => (session = await openSession(merchant.apiKey, 18, HOOK)));
        opened.push(session.session_id);
        await step("view", async () => {
          const view = await call("GET", `/api/age-verification/session/${session.session_id}/request`, {
            token: user.token,
            headers: { "x-session-nonce": session.nonce },
          });
          expect(view.status).toBe(200);
        });
        await step("complete", async () => expect((await complete(user.token, session.session_id, session.nonce)).status).toBe(200));
        await step("two polls", async () => {
          for (let p = 0; p < 2; p++) expect((await poll(merchant.apiKey, session.session_id)).status).toBe(200);
        });
      }
      // The first attempts run in the objects after their answers: wait until every callback is delivered.
      await step("callback (after the loop)", async () => {
        for (let wait = 0; wait < 200 && (await deliveredCount()) < SESSIONS; wait++)
          await new Promise((resolve) => setTimeout(resolve, 50));
      });
    } finally {
      counter.restore();
    }
    expect(await deliveredCount()).toBe(SESSIONS);
    // The counter saw the key lookups (a statement prepared once): without them the figures would be low.
    expect(steps["two polls"]!.reads / SESSIONS).toBeGreaterThanOrEqual(2);
    const perSession = {
      writes: counter.traffic.writes / SESSIONS,
      reads: counter.traffic.reads / SESSIONS,
      statements: counter.traffic.statements / SESSIONS,
    };
    const bytesPerSession = ((await databaseBytes()) - bytesBefore) / SESSIONS;
    for (const [name, t] of Object.entries(steps))
      console.log(
        `${name}: ${(t.writes / SESSIONS).toFixed(2)} write transactions, ${(t.reads / SESSIONS).toFixed(2)} reads, ${(t.statements / SESSIONS).toFixed(2)} statements per session`,
      );
    console.log(
      `per session: ${perSession.writes.toFixed(2)} D1 write transactions, ${perSession.reads.toFixed(2)} D1 read round trips, ${perSession.statements.toFixed(1)} statements; ${Math.round(bytesPerSession)} bytes of D1`,
    );
    expect(perSession.writes).toBeGreaterThanOrEqual(3);
    expect(perSession.writes).toBeLessThanOrEqual(8);
    expect(perSession.reads).toBeLessThanOrEqual(12);
    expect(bytesPerSession).toBeGreaterThan(300);
    expect(bytesPerSession).toBeLessThan(3000);
  });

  it("a usage rollup row (account, key, day, mode) takes under 200 bytes", async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => seedMerchant("default key", "live", { shard: 0 })));
    const keys = accounts.flatMap(({ account }) => Array.from({ length: 5 }, () => ({ accountId: account.id, keyId: newId("key") })));
    const before = await databaseBytes();
    const insert = env.DB.prepare(
      "INSERT INTO usage_days (account_id, key_id, day, livemode, approved, denied, expired, pending) VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
    );
    const statements: D1PreparedStatement[] = [];
    for (let i = 0; i < ROLLUP_ROWS; i++) {
      const { accountId, keyId } = keys[i % keys.length]!;
      const day = new Date(Date.UTC(2025, 0, 1) + Math.floor(i / keys.length) * 86_400_000).toISOString().slice(0, 10);
      statements.push(insert.bind(accountId, keyId, day, 1, 1000 + i, 90 + (i % 10), 7));
    }
    for (let i = 0; i < statements.length; i += 100) await env.DB.batch(statements.slice(i, i + 100));
    const bytesPerRow = ((await databaseBytes()) - before) / ROLLUP_ROWS;
    console.log(`per usage rollup row: ${Math.round(bytesPerRow)} bytes of D1`);
    expect(bytesPerRow).toBeGreaterThan(30);
    expect(bytesPerRow).toBeLessThan(200);
  });
});
