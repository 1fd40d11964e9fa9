// Usage rollups (docs/capacity.md): the scheduled run folds the session log into daily counts before the
// retention deletes its rows, and every count report (summary, by-key, by-day, per mode) answers the same
// after the fold and the prune as the raw log did before them, across the boundary. The raw answers are
// read through the real routes before any fold; the seeded truth never goes through the code under test.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { and, eq, lt } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { usageDays, verificationSessions } from "../../src/db/schema";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { foldUsage, lastFoldableDay } from "../../src/maintenance/fold-usage";
import { pruneSessionLog } from "../../src/maintenance/prune-session-log";
import { createApp } from "../../src/app";
import { countingEnv } from "../helpers/counting-env";
import { buildRequest, call } from "../helpers/http";
import { database } from "../../src/db/client";
import { db, root, seedMerchant, SEEDED_PASSWORD } from "../helpers/seed";
import { dbOfAccount, shardBindings } from "../helpers/shards";
import { seedSessions } from "../helpers/sessions-log";
import { daysAgo, runScheduled } from "./helpers";

const DAY_MS = 86_400_000;
const RETENTION_DAYS = 30;
const retention = { ...env, SESSION_LOG_RETENTION_DAYS: String(RETENTION_DAYS) };
const date = (daysBack: number, from = Date.now()) => daysAgo(daysBack, from).slice(0, 10);

/**
 * Two merchants with sessions on the same days: A with two live keys and a test key, on shard 0; B with one
 * key, on shard 1 (each shard folds its own log: the scheduled run folds every shard), or on shard 0 beside
 * A (`sameShard`): only there does a report that forgot the account meet the other merchant's rows.
 */
async function seedTwoMerchants(sameShard = false) {
  const a = await seedMerchant("A live one", "live", { shard: 0 });
  const live2 = await createApiKey(root().onShard(0), a.account.id, "A live two", "live");
  const test = await createApiKey(root().onShard(0), a.account.id, "A test", "test");
  const b = await seedMerchant("B live", "live", { shard: sameShard ? 0 : 1 });
  // 5-hour steps over about 62 days, the newest a day ago; every fourth row a new key, test rows on the test key.
  const keysA = [a.keyId, live2.key.id, test.key.id];
  await seedSessions({
    accountId: a.account.id,
    keyIds: keysA,
    count: 600,
    newest: Date.now() - DAY_MS,
    stepMs: 5 * 3_600_000,
    sameTime: 2,
    testSession: (i) => Math.floor(i / 4) % 3 === 2,
  });
  await seedSessions({
    accountId: b.account.id,
    keyIds: [b.keyId],
    count: 200,
    newest: Date.now() - DAY_MS - 7_000,
    stepMs: 15 * 3_600_000,
    sameTime: 2,
  });
  return { a, b };
}

// Windows across the boundary (30 days back), wholly before it, wholly after it, and with times of day on the raw side.
const now = Date.now();
const WINDOWS = [
  `from=${date(61, now)}&to=${date(5, now)}`,
  `from=${date(70, now)}&to=${encodeURIComponent(new Date(now).toISOString())}`,
  `from=${date(55, now)}&to=${date(40, now)}`,
  `from=${encodeURIComponent(daysAgo(20.4, now))}&to=${encodeURIComponent(daysAgo(2.3, now))}`,
];
const REPORTS = ["summary", "by-key", "by-day"] as const;

/** Every report of every window in both modes: the answers a merchant reads. */
async function reports(token: string) {
  const answers: Record<string, unknown> = {};
  for (const window of WINDOWS) {
    for (const mode of ["live", "test"] as const) {
      for (const report of REPORTS) {
        const res = await call("GET", `/api/usage/${report}?mode=${mode}&${window}`, { token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        answers[`${report} ${mode} ${window}`] = res.body.data;
      }
    }
  }
  return answers;
}

const rawRowsOlderThan = async (accountId: string, days: number) =>
  (
    await (
      await dbOfAccount(accountId)
    )
      .select()
      .from(verificationSessions)
      .where(and(eq(verificationSessions.accountId, accountId), lt(verificationSessions.createdAt, daysAgo(days))))
  ).length;

/** Every shard's rollup, shard 0 first. */
const rollupRows = async () =>
  (
    await Promise.all(
      shardBindings().map((d1) =>
        database(d1).select().from(usageDays).orderBy(usageDays.accountId, usageDays.livemode, usageDays.day, usageDays.keyId),
      ),
    )
  ).flat();
const onEveryShard = (sql: string) => Promise.all(shardBindings().map((d1) => d1.prepare(sql).run()));

/** Folds until the fold reaches the last foldable day (a backlog goes a week per run). */
async function foldAll() {
  for (let shard = 0; shard < shardBindings().length; shard++) {
    let done = false;
    for (let run = 0; run < 20 && !done; run++) done = (await foldUsage(root().onShard(shard), new Date())).days.length === 0;
    if (!done) throw new Error("the fold did not finish");
  }
}

beforeEach(async () => {
  // The fold's mark is one per database: each test starts from logs that were never folded.
  for (const d1 of shardBindings())
    await d1.batch([
      d1.prepare("DELETE FROM usage_fold"),
      d1.prepare("DELETE FROM usage_days"),
      d1.prepare("DELETE FROM verification_sessions"),
    ]);
});

describe("usage rollups", { timeout: 120_000 }, () => {
  it.each([
    ["on different shards", false],
    ["on the same shard (each reads only its own rollup rows)", true],
  ])(
    "every report, per mode and per key, answers after the scheduled fold and prune exactly as the raw log did before: two merchants %s",
    async (_layout, sameShard) => {
      const { a, b } = await seedTwoMerchants(sameShard);
      const rawA = await reports(a.account.token);
      const rawB = await reports(b.account.token);
      // The windows hold sessions on both sides of the boundary, in both modes.
      expect(rawA[`summary live ${WINDOWS[0]}`]).toMatchObject({ total: expect.any(Number) });
      expect((rawA[`summary live ${WINDOWS[0]}`] as { total: number }).total).toBeGreaterThan(200);
      expect((rawA[`summary test ${WINDOWS[0]}`] as { total: number }).total).toBeGreaterThan(50);

      // A 62-day backlog folds a week per run; the retention prunes behind it.
      for (let run = 0; run < 12; run++) await runScheduled(retention);

      // The raw rows older than the retention are gone, so the old days can only come from the rollup.
      expect(await rawRowsOlderThan(a.account.id, RETENTION_DAYS + 1)).toBe(0);
      expect(await rawRowsOlderThan(a.account.id, RETENTION_DAYS - 1)).toBeGreaterThan(0);
      expect((await rollupRows()).length).toBeGreaterThan(0);
      expect(await reports(a.account.token)).toEqual(rawA);
      expect(await reports(b.account.token)).toEqual(rawB);
    },
  );

  it("folding a day twice writes the same rows; a scheduled run after the fold changes nothing", async () => {
    await seedTwoMerchants();
    await foldAll();
    const once = await rollupRows();
    expect(once.length).toBeGreaterThan(100);
    // Forget the mark: every day is folded again from the raw log, over the rows already there.
    await onEveryShard("DELETE FROM usage_fold");
    await foldAll();
    expect(await rollupRows()).toEqual(once);
    await runScheduled();
    expect(await rollupRows()).toEqual(once);
  });

  it("the retention keeps the raw rows of days the fold has not reached", async () => {
    const { a } = await seedTwoMerchants();
    const before = await rawRowsOlderThan(a.account.id, 0);
    // No fold yet: nothing is pruned, however old.
    await pruneSessionLog(env.DB, new Date(), RETENTION_DAYS);
    expect(await rawRowsOlderThan(a.account.id, 0)).toBe(before);
    // Three days folded: only their rows may go; the older-than-retention days after them stay.
    const folded = await foldUsage(root().onShard(0), new Date(), { days: 3 });
    expect(folded.days).toHaveLength(3);
    await pruneSessionLog(env.DB, new Date(), RETENTION_DAYS);
    const left = await db()
      .select({ createdAt: verificationSessions.createdAt })
      .from(verificationSessions)
      .where(eq(verificationSessions.accountId, a.account.id));
    expect(left.length).toBeLessThan(before);
    expect(left.every((row) => row.createdAt.slice(0, 10) > folded.through!)).toBe(true);
    expect(left.filter((row) => row.createdAt < daysAgo(RETENTION_DAYS)).length).toBeGreaterThan(0);
  });

  it("deleting an account deletes its rollup rows, and no other account's", async () => {
    const { a, b } = await seedTwoMerchants();
    await foldAll();
    const owners = async () => new Set((await rollupRows()).map((row) => row.accountId));
    expect(await owners()).toEqual(new Set([a.account.id, b.account.id]));
    // Old seeded sessions have no Durable Object to close: resolve them, as the alarms would have.
    await onEveryShard("UPDATE verification_sessions SET status = 'EXPIRED' WHERE status = 'PENDING'");
    const res = await call("DELETE", "/api/users/account", { token: a.account.token, body: { password: SEEDED_PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await owners()).toEqual(new Set([b.account.id]));
  });

  it("each report is still one D1 round trip after the account's read, rollup and log together", async () => {
    const { a } = await seedTwoMerchants();
    for (let run = 0; run < 12; run++) await runScheduled(retention);
    for (const report of REPORTS) {
      const { env: counted, counts } = countingEnv();
      const ctx = createExecutionContext();
      const res = await createApp().fetch(
        buildRequest("GET", `/api/usage/${report}?${WINDOWS[0]}`, { token: a.account.token }),
        counted,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(200);
      // The signed-in account's read, then the report: one query (by-key's is a batch with the key list).
      expect(counts.d1, report).toBe(2);
    }
  });

  it("a day older than the raw log is counted whole, even when the window starts inside it", async () => {
    const { a } = await seedTwoMerchants();
    for (let run = 0; run < 12; run++) await runScheduled(retention);
    const day = date(50);
    const noon = encodeURIComponent(`${day}T12:00:00.000Z`);
    const whole = await call("GET", `/api/usage/summary?from=${day}&to=${day}`, { token: a.account.token });
    const fromNoon = await call("GET", `/api/usage/summary?from=${noon}&to=${day}`, { token: a.account.token });
    expect(whole.body.data.total).toBeGreaterThan(0);
    expect({ ...fromNoon.body.data, from: undefined }).toEqual({ ...whole.body.data, from: undefined });
  });

  it("the rollup holds counts only: no session id, no time finer than a day, nothing about an end user", async () => {
    const { a } = await seedTwoMerchants();
    await foldAll();
    const columns = (await env.DB.prepare("PRAGMA table_info(usage_days)").all<{ name: string }>()).results.map((c) => c.name);
    expect(columns).toEqual(["account_id", "key_id", "day", "livemode", "approved", "denied", "expired", "pending"]);
    const rows = await rollupRows();
    expect(rows.some((row) => row.accountId === a.account.id)).toBe(true);
    for (const row of rows) {
      expect(row.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(JSON.stringify(row)).not.toMatch(/ses_|rcpt_|T\d{2}:/);
    }
  });

  it("a day is folded only once its last session has expired, plus an hour's grace", () => {
    const ttl = 1800;
    // The last session of 2026-11-20 opens at 23:59:59.999 and expires at 00:29:59.999 on the 21st.
    expect(lastFoldableDay(new Date("2026-11-21T01:29:59.999Z"), ttl)).toBe("2026-11-19");
    expect(lastFoldableDay(new Date("2026-11-21T01:30:00.000Z"), ttl)).toBe("2026-11-20");
    expect(lastFoldableDay(new Date("2026-11-21T03:30:00.000Z"), 3 * 3600)).toBe("2026-11-19");
  });
});
