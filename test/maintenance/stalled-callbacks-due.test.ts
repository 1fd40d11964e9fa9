// The stalled-callback sweep selects due events in SQL (docs/security-privacy.md): events that are pending but
// not yet due (a merchant's failing endpoint between retries) never fill a run's page, so they cannot
// hold back another merchant's lost event; and the SQL rule agrees with nextAttemptDueMs, the rule's
// plain statement, case by case. Events here have no Durable Object state, so each one the sweep picks
// is reported as forgotten by name: the log says which ones were selected.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nextAttemptDueMs, resendStalledCallbacks } from "../../src/maintenance/resend-stalled-callbacks";
import { serviceContext } from "../../src/service";
import { seedResolvedSession } from "../helpers/callbacks";
import { db, seedMerchant } from "../helpers/seed";

afterEach(() => vi.restoreAllMocks());

const STALL_SECONDS = 60;
const ago = (now: number, seconds: number) => new Date(now - seconds * 1000).toISOString();

type Case = { attempts: number; updatedAgo: number; lastAgo?: number; lastStatus?: number | null; lastError?: string | null };

/** One pending event on `sessionId` with `attempts` recorded attempts, the last one as given. */
async function seedEvent(sessionId: string, now: number, c: Case): Promise<string> {
  const id = `msg_case${crypto.randomUUID().replaceAll("-", "")}`;
  const d1 = env.DB;
  const statements = [
    d1
      .prepare(
        "INSERT INTO callback_events (id, session_id, type, state, created_at, updated_at) VALUES (?, ?, 'age_verification.session.approved', 'pending', ?, ?)",
      )
      .bind(id, sessionId, ago(now, c.updatedAgo), ago(now, c.updatedAgo)),
  ];
  for (let attempt = 1; attempt <= c.attempts; attempt++) {
    const last = attempt === c.attempts;
    statements.push(
      d1
        .prepare("INSERT INTO callback_attempts (event_id, attempt, at, duration_ms, status_code, error) VALUES (?, ?, ?, 10, ?, ?)")
        .bind(
          id,
          attempt,
          ago(now, last ? c.lastAgo! : c.lastAgo! + 3600),
          last ? (c.lastStatus ?? 500) : 500,
          last ? (c.lastError ?? null) : null,
        ),
    );
  }
  await d1.batch(statements);
  return id;
}

/** The webhook ids a sweep at `now` selected (each is logged as forgotten: no Durable Object holds it). */
async function selectedBySweep(now: number): Promise<{ ids: string[]; result: Awaited<ReturnType<typeof resendStalledCallbacks>> }> {
  const errors = vi.spyOn(console, "error");
  // The sweep runs per shard (src/maintenance/run.ts); these merchants are all on shard 0 (env.DB).
  const result = await resendStalledCallbacks(serviceContext(env).onShard(0), new Date(now), STALL_SECONDS);
  const ids = errors.mock.calls
    .map((call) => String(call[0]))
    .filter((line) => line.includes("its session is forgotten"))
    .map((line) => (JSON.parse(line) as { webhookId: string }).webhookId);
  errors.mockRestore();
  return { ids, result };
}

describe("the stalled-callback sweep selects due events", () => {
  it("200 and more pending events not yet due, older than another merchant's lost event, do not hold it back", async () => {
    const now = Date.now();
    const failing = await seedMerchant("failing", "live", { shard: 0 });
    const failingSession = (await seedResolvedSession(failing)).sessionId;
    // A merchant whose endpoint fails: 210 events between retries (3 attempts, the last 5 minutes ago: the
    // next is due after 30 minutes), all older than the lost event below.
    for (let batch = 0; batch < 7; batch++) {
      await Promise.all(Array.from({ length: 30 }, () => seedEvent(failingSession, now, { attempts: 3, updatedAgo: 1200, lastAgo: 300 })));
    }
    await db().$client.prepare("DELETE FROM callback_events WHERE session_id = ? AND id NOT LIKE 'msg_case%'").bind(failingSession).run();
    const other = await seedMerchant("other", "live", { shard: 0 });
    const lost = await seedEvent((await seedResolvedSession(other)).sessionId, now, { attempts: 0, updatedAgo: 600 });
    await db().$client.prepare("DELETE FROM callback_events WHERE id <> ? AND session_id <> ?").bind(lost, failingSession).run();

    const { ids, result } = await selectedBySweep(now);
    expect(ids).toEqual([lost]);
    expect(result).toEqual({ resent: 0, forgotten: 1, more: false });
  });

  it("selects exactly the events nextAttemptDueMs says are due, past the stall allowance", async () => {
    const now = Date.now();
    const session = (await seedResolvedSession(await seedMerchant("default key", "live", { shard: 0 }))).sessionId;
    await db().$client.prepare("DELETE FROM callback_events").run();
    const cases: Case[] = [
      { attempts: 0, updatedAgo: 120 },
      { attempts: 0, updatedAgo: 30 },
      { attempts: 1, updatedAgo: 600, lastAgo: 120 },
      { attempts: 1, updatedAgo: 600, lastAgo: 62 },
      { attempts: 3, updatedAgo: 7200, lastAgo: 1200 },
      { attempts: 3, updatedAgo: 7200, lastAgo: 2400 },
      { attempts: 2, updatedAgo: 90_000, lastAgo: 7200, lastStatus: 503 },
      { attempts: 2, updatedAgo: 90_000, lastAgo: 88_000, lastStatus: 429 },
      { attempts: 2, updatedAgo: 600, lastAgo: 180, lastError: "in_progress" },
      { attempts: 2, updatedAgo: 600, lastAgo: 90, lastError: "in_progress" },
      { attempts: 10, updatedAgo: 200_000, lastAgo: 90_000 },
      { attempts: 10, updatedAgo: 200_000, lastAgo: 97_500 },
    ];
    const seeded = await Promise.all(cases.map(async (c) => ({ c, id: await seedEvent(session, now, c) })));
    const expected = seeded
      .filter(({ c }) => {
        const updatedAt = ago(now, c.updatedAgo);
        if (Date.parse(updatedAt) >= now - STALL_SECONDS * 1000) return false;
        const due = nextAttemptDueMs({
          id: "",
          sessionId: "",
          updatedAt,
          attempts: c.attempts,
          lastAt: c.attempts ? ago(now, c.lastAgo!) : null,
          lastStatus: c.attempts ? (c.lastStatus ?? 500) : null,
          lastError: c.lastError ?? null,
        });
        return due + STALL_SECONDS * 1000 <= now;
      })
      .map(({ id }) => id);
    // The table reaches both sides of every branch.
    expect(expected.length).toBeGreaterThanOrEqual(5);
    expect(expected.length).toBeLessThanOrEqual(cases.length - 5);
    const { ids } = await selectedBySweep(now);
    expect(ids.sort()).toEqual(expected.sort());
  });
});
