// The scheduled handler's clean-up jobs on seeded rows: what is past its time goes, the rest stays,
// a second run changes nothing, and each run is bounded.
import { env } from "cloudflare:test";
import { eq, inArray } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  accountCounters,
  attestationGrants,
  callbackAttempts,
  callbackEvents,
  devOutbox,
  emailTokens,
  verificationSessions,
} from "../../src/db/schema";
import { DEFAULT_SESSION_LOG_RETENTION_DAYS } from "../../src/config/settings";
import { deleteInBatches } from "../../src/maintenance/batch-delete";
import { seedResolvedSession } from "../helpers/callbacks";
import { db, seedAccount, seedMerchant } from "../helpers/seed";
import { daysAgo, runScheduled } from "./helpers";
import { dbHolding, dbOfSession } from "../helpers/shards";
import { dbOfAccount, shardBindings } from "../helpers/shards";
import { database } from "../../src/db/client";

afterEach(() => vi.restoreAllMocks());

const token = (userId: string, name: string, expiresAt: string, usedAt: string | null) => ({
  tokenHash: `${name}-${userId}`,
  userId,
  purpose: "verify" as const,
  newEmail: null,
  expiresAt,
  usedAt,
  createdAt: daysAgo(2),
});

describe("scheduled clean-up", () => {
  it("deletes expired and used email tokens, keeps usable ones; a second run changes nothing", async () => {
    const { id } = await seedAccount();
    const shard = await dbOfAccount(id);
    await shard
      .insert(emailTokens)
      .values([
        token(id, "expired", daysAgo(1), null),
        token(id, "used", daysAgo(-1), daysAgo(0.5)),
        token(id, "usable", daysAgo(-1), null),
      ]);
    const left = async () =>
      (await shard.select().from(emailTokens).where(eq(emailTokens.userId, id))).map((t) => t.tokenHash.split("-")[0]);
    await runScheduled();
    expect(await left()).toEqual(["usable"]);
    await runScheduled();
    expect(await left()).toEqual(["usable"]);
  });

  it("deletes per-account limit counters whose window has ended, keeps the current ones, on every shard", async () => {
    const tag = `counter-${Date.now()}`;
    const shards = shardBindings().map((d1) => database(d1));
    for (const shard of shards) {
      await shard.insert(accountCounters).values([
        { key: `${tag}-ended`, count: 3, expiresAt: daysAgo(0.01) },
        { key: `${tag}-current`, count: 3, expiresAt: daysAgo(-0.01) },
      ]);
    }
    await runScheduled();
    for (const shard of shards) {
      const left = (await shard.select().from(accountCounters)).map((r) => r.key).filter((key) => key.startsWith(tag));
      expect(left).toEqual([`${tag}-current`]);
    }
  });

  it("deletes attestation grants past their expiry, keeps live ones", async () => {
    const tag = `grant-${Date.now()}`;
    await db()
      .insert(attestationGrants)
      .values([
        { keyHash: `${tag}-dead`, kind: "offer", expiresAt: daysAgo(0.001) },
        { keyHash: `${tag}-live`, kind: "nonce", expiresAt: daysAgo(-0.001) },
      ]);
    await runScheduled();
    const left = (await db().select().from(attestationGrants)).map((r) => r.keyHash).filter((key) => key.startsWith(tag));
    expect(left).toEqual([`${tag}-live`]);
  });

  it("deletes development outbox rows older than a day", async () => {
    const to = `outbox-${Date.now()}@example.test`;
    await db()
      .insert(devOutbox)
      .values([
        { to, subject: "old", text: "old", createdAt: daysAgo(1.1) },
        { to, subject: "new", text: "new", createdAt: daysAgo(0.9) },
      ]);
    await runScheduled();
    expect((await db().select().from(devOutbox).where(eq(devOutbox.to, to))).map((r) => r.subject)).toEqual(["new"]);
  });

  it("prunes callback attempts older than CALLBACK_LOG_RETENTION_DAYS of settled events, never a pending event's", async () => {
    const merchant = await seedMerchant();
    const shard = await dbOfAccount(merchant.account.id);
    const settled = await seedResolvedSession(merchant);
    const pending = await seedResolvedSession(merchant);
    const attempt = (eventId: string, n: number, at: string) => ({ eventId, attempt: n, at, durationMs: 5, statusCode: 500, error: null });
    await shard
      .insert(callbackAttempts)
      .values([
        attempt(settled.webhookId, 1, daysAgo(31)),
        attempt(settled.webhookId, 2, daysAgo(29)),
        attempt(pending.webhookId, 1, daysAgo(31)),
      ]);
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", settled.webhookId))
      .update(callbackEvents)
      .set({ state: "failed" })
      .where(eq(callbackEvents.id, settled.webhookId));
    await runScheduled();
    const rows = await shard
      .select()
      .from(callbackAttempts)
      .where(inArray(callbackAttempts.eventId, [settled.webhookId, pending.webhookId]));
    expect(rows.map((r) => `${r.eventId === settled.webhookId ? "settled" : "pending"}#${r.attempt}`).sort()).toEqual([
      "pending#1",
      "settled#2",
    ]);
    // A shorter retention setting is honoured.
    await runScheduled({ ...env, CALLBACK_LOG_RETENTION_DAYS: "10" });
    expect(
      (
        await (
          await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", settled.webhookId)
        )
          .select()
          .from(callbackAttempts)
          .where(eq(callbackAttempts.eventId, settled.webhookId))
      ).length,
    ).toBe(0);
  });

  it("prunes session log rows older than SESSION_LOG_RETENTION_DAYS, with their events and attempts", async () => {
    const merchant = await seedMerchant();
    const shard = await dbOfAccount(merchant.account.id);
    const old = await seedResolvedSession(merchant);
    const recent = await seedResolvedSession(merchant);
    // The scheduled run folds their days into the usage rollup first (test/maintenance/usage-rollup.test.ts).
    await (await dbOfSession(old.sessionId))
      .update(verificationSessions)
      .set({ createdAt: daysAgo(DEFAULT_SESSION_LOG_RETENTION_DAYS + 1) })
      .where(eq(verificationSessions.id, old.sessionId));
    await (await dbOfSession(recent.sessionId))
      .update(verificationSessions)
      .set({ createdAt: daysAgo(DEFAULT_SESSION_LOG_RETENTION_DAYS - 1) })
      .where(eq(verificationSessions.id, recent.sessionId));
    await shard
      .update(callbackEvents)
      .set({ state: "delivered" })
      .where(inArray(callbackEvents.id, [old.webhookId, recent.webhookId]));
    // Recent attempts (inside the attempts' own retention), so only the session log's rule removes them.
    await shard.insert(callbackAttempts).values([
      { eventId: old.webhookId, attempt: 1, at: daysAgo(1), durationMs: 5, statusCode: 204, error: null },
      { eventId: recent.webhookId, attempt: 1, at: daysAgo(1), durationMs: 5, statusCode: 204, error: null },
    ]);
    await runScheduled();
    const sessions = await shard
      .select()
      .from(verificationSessions)
      .where(inArray(verificationSessions.id, [old.sessionId, recent.sessionId]));
    expect(sessions.map((s) => s.id)).toEqual([recent.sessionId]);
    const events = await shard
      .select()
      .from(callbackEvents)
      .where(inArray(callbackEvents.id, [old.webhookId, recent.webhookId]));
    expect(events.map((e) => e.id)).toEqual([recent.webhookId]);
    const attempts = await shard
      .select()
      .from(callbackAttempts)
      .where(inArray(callbackAttempts.eventId, [old.webhookId, recent.webhookId]));
    expect(attempts.map((a) => a.eventId)).toEqual([recent.webhookId]);
  });

  it("the scheduled run deletes at most its bound (10 batches of 500 rows) per table: the rest goes in the next run", async () => {
    const to = `bounded-${Date.now()}@example.test`;
    const old = daysAgo(3);
    // 5001 old rows in one statement (a recursive count), one more than a run deletes.
    await env.DB.prepare(
      `INSERT INTO dev_outbox ("to", subject, text, created_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5001) SELECT ?, 'm' || i, 'x', ? FROM n`,
    )
      .bind(to, old)
      .run();
    const left = async () =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM dev_outbox WHERE "to" = ?`).bind(to).first<{ n: number }>())!.n;
    expect(await left()).toBe(5001);
    await runScheduled();
    expect(await left()).toBe(1);
    await runScheduled();
    expect(await left()).toBe(0);
  });

  it("deletes in bounded batches: what is left goes in the next run", async () => {
    const to = `batch-${Date.now()}@example.test`;
    await db()
      .insert(devOutbox)
      .values(Array.from({ length: 5 }, (_, i) => ({ to, subject: `m${i}`, text: "x", createdAt: daysAgo(3) })));
    const first = await deleteInBatches(env.DB, "dev_outbox", '"to" = ?', [to], { rows: 2, batches: 2 });
    expect(first).toEqual({ deleted: 4, more: true });
    const second = await deleteInBatches(env.DB, "dev_outbox", '"to" = ?', [to], { rows: 2, batches: 2 });
    expect(second).toEqual({ deleted: 1, more: false });
  });

  it("a misconfigured deployment runs no job", async () => {
    const to = `misconfigured-${Date.now()}@example.test`;
    await db()
      .insert(devOutbox)
      .values({ to, subject: "old", text: "old", createdAt: daysAgo(2) });
    const errors = vi.spyOn(console, "error");
    await runScheduled({ ...env, ENVIRONMENT: "prod" });
    expect((await db().select().from(devOutbox).where(eq(devOutbox.to, to))).length).toBe(1);
    expect(errors.mock.calls.flat().join("\n")).toContain("scheduled maintenance skipped");
  });
});
