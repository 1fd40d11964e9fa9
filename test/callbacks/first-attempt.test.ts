// A resolution's first callback attempt is made at once by the session's Durable Object (docs/performance.md), and
// the queue keeps a copy that waits for attempt 1: delivery stays at least once whatever stops where.
// The copy delivers when the first attempt never ran, takes over an attempt cut off mid-way, and is
// dropped once attempt 1 has an outcome (its holder carried the event on).
import { runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAIM_TTL_SECONDS } from "../../src/callbacks/consumer";
import type { ServiceContext } from "../../src/context/service-context";
import { callbackAttempts, callbackEvents } from "../../src/db/schema";
import { SAFETY_NET_DELAY_SECONDS, type CallbackMessage } from "../../src/session/callback-message";
import { serviceContext } from "../../src/service";
import { attemptsOf, eventState, runCallbacks } from "../helpers/callbacks";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession, sessionObject } from "../helpers/sessions";
import { withParts } from "../../src/context/shard-contexts";
import { dbHolding, dbOfSession } from "../helpers/shards";

const HOOK = "https://merchant.example.com/hooks/age";

afterEach(() => {
  vi.restoreAllMocks();
});

type Sent = { body: CallbackMessage; delaySeconds: number | undefined };

/**
 * Inside the session's live object: a queue that records what it is given (and delivers nothing), and the
 * first attempt either made (on that queue) or, with `firstAttempt: false`, never made, as when the
 * object stops right after its outbox is flushed.
 */
async function interceptSession(sessionId: string, options: { firstAttempt: boolean }): Promise<Sent[]> {
  const sent: Sent[] = [];
  await runInDurableObject(sessionObject(sessionId), async (instance) => {
    const object = instance as unknown as {
      env: Env;
      root: ServiceContext;
      firstCallbackAttempt: (message: CallbackMessage) => Promise<void>;
    };
    const queue = {
      send: async (body: CallbackMessage, opts?: QueueSendOptions) => void sent.push({ body, delaySeconds: opts?.delaySeconds }),
    } as unknown as Env["CALLBACKS"];
    object.root = withParts(serviceContext(object.env), { callbackQueue: queue });
    if (!options.firstAttempt) object.firstCallbackAttempt = async () => {};
  });
  return sent;
}

async function approvedSession(options: { firstAttempt: boolean }) {
  const merchant = await seedMerchant();
  const user = await seedEndUser("1990-01-01");
  const opened = await openSession(merchant.apiKey, 18, HOOK);
  const sent = await interceptSession(opened.session_id, options);
  const completed = await complete(user.token, opened.session_id, opened.nonce);
  expect(completed.status).toBe(200);
  const [event] = await (await dbOfSession(opened.session_id))
    .select()
    .from(callbackEvents)
    .where(eq(callbackEvents.sessionId, opened.session_id));
  return { sent, webhookId: event!.id, resolvedAt: completed.body.data.resolved_at as string };
}

const postsTo = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([input]) => String(input) === HOOK);

describe("the first callback attempt, at once", () => {
  it("delivers from the session's object as soon as the resolution is durable, with no queue batch", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { sent, webhookId, resolvedAt } = await approvedSession({ firstAttempt: true });
    await vi.waitFor(async () => expect(await eventState(webhookId)).toBe("delivered"));
    expect(postsTo(spy)).toHaveLength(1);
    const [attempt] = await attemptsOf(webhookId);
    expect(attempt).toMatchObject({ attempt: 1, statusCode: 204, error: null });
    expect(Date.parse(attempt!.at) - Date.parse(resolvedAt)).toBeLessThan(5_000);
    // The queue holds one message: the copy that waits for attempt 1, delayed past a claim's lifetime.
    expect(sent).toEqual([{ body: expect.objectContaining({ webhookId, awaitsAttempt: 1 }), delaySeconds: SAFETY_NET_DELAY_SECONDS }]);
    expect(SAFETY_NET_DELAY_SECONDS).toBeGreaterThan(CLAIM_TTL_SECONDS);
    // When the copy comes, attempt 1 has its outcome: it is dropped, and nothing is sent twice.
    const { result } = await runCallbacks([sent[0]!.body]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(postsTo(spy)).toHaveLength(1);
  });

  it("a first attempt that never ran: the queue's copy delivers, once", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { sent, webhookId } = await approvedSession({ firstAttempt: false });
    expect(await eventState(webhookId)).toBe("pending");
    expect(postsTo(spy)).toHaveLength(0);
    await runCallbacks([sent[0]!.body]);
    expect(await eventState(webhookId)).toBe("delivered");
    expect(postsTo(spy)).toHaveLength(1);
    expect((await attemptsOf(webhookId)).map((a) => a.attempt)).toEqual([1]);
  });

  it("a first attempt cut off mid-way: the copy finds it interrupted and delivers with attempt 2", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const { sent, webhookId } = await approvedSession({ firstAttempt: false });
    // What an object that stopped while sending leaves: attempt 1 claimed, in progress, never recorded.
    const claimedAt = new Date(Date.now() - (CLAIM_TTL_SECONDS + 5) * 1000).toISOString();
    await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", webhookId))
      .insert(callbackAttempts)
      .values({ eventId: webhookId, attempt: 1, at: claimedAt, durationMs: 0, statusCode: null, error: "in_progress" });
    await runCallbacks([sent[0]!.body]);
    expect(await eventState(webhookId)).toBe("delivered");
    expect(postsTo(spy)).toHaveLength(1);
    expect((await attemptsOf(webhookId)).map((a) => [a.attempt, a.error])).toEqual([
      [1, "interrupted"],
      [2, null],
    ]);
  });

  it("a first attempt that failed schedules the retry itself; the copy is then dropped and the retry delivers", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("busy", { status: 503 }));
    const { sent, webhookId } = await approvedSession({ firstAttempt: true });
    await vi.waitFor(async () => expect(await attemptsOf(webhookId)).toHaveLength(1));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    const [copy, retry] = sent;
    expect(copy!.body.awaitsAttempt).toBe(1);
    // The retry, on the Standard Webhooks schedule (attempt 2 after 5 s, up to 10 % jitter).
    expect(retry!.body.awaitsAttempt).toBeUndefined();
    expect(retry!.delaySeconds).toBeGreaterThanOrEqual(5);
    expect(retry!.delaySeconds).toBeLessThanOrEqual(6);
    // The copy finds attempt 1 answered: dropped, nothing sent.
    await runCallbacks([copy!.body]);
    expect(postsTo(spy)).toHaveLength(1);
    expect(await eventState(webhookId)).toBe("pending");
    // The retry delivers.
    spy.mockImplementation(async () => new Response(null, { status: 204 }));
    await runCallbacks([retry!.body]);
    expect(await eventState(webhookId)).toBe("delivered");
    expect((await attemptsOf(webhookId)).map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 204],
    ]);
  });
});
