// One callback delivery, counted in D1 round trips (a batch is one): claim the attempt with everything
// it needs, then record its outcome. Counted, not timed: the numbers are the same on any machine.
import { afterEach, describe, expect, it, vi } from "vitest";
import { callbackAttempts } from "../../src/db/schema";
import { eventState, runCallbacks, runQueue, seedResolvedSession } from "../helpers/callbacks";
import { countingEnv } from "../helpers/counting-env";
import { seedMerchant } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("D1 round trips per callback delivery", () => {
  it("a delivered attempt: one to claim it (with the event and the signing secret), one to record its outcome", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const { env, counts } = countingEnv();
    await runCallbacks([message], env);
    expect(await eventState(message.webhookId)).toBe("delivered");
    expect(counts.d1).toBe(2);
  });

  it("a failed attempt that is retried costs the same two", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 500 }));
    await runCallbacks([message]);
    const { env, counts } = countingEnv();
    const { retried } = await runCallbacks([message], env);
    expect(retried).toHaveLength(1);
    expect(counts.d1).toBe(2);
  });

  it("a redelivered copy of a settled event: the claim alone, then an ack", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    await runCallbacks([message]);
    const { env, counts } = countingEnv();
    const { result } = await runCallbacks([message], env);
    expect(result.explicitAcks).toHaveLength(1);
    expect(counts.d1).toBe(1);
  });

  it("a copy finding the attempt held by another: the claim alone, then it stands aside", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    await (await dbOfAccount(merchant.account.id)).insert(callbackAttempts).values({
      eventId: message.webhookId,
      attempt: 1,
      at: new Date().toISOString(),
      durationMs: 0,
      statusCode: null,
      error: "in_progress",
    });
    const sends: unknown[] = [];
    const spy = vi.spyOn(globalThis, "fetch");
    const { env, counts } = countingEnv();
    const CALLBACKS = { send: async (body: unknown) => void sends.push(body) } as unknown as Queue;
    await runCallbacks([message], { ...env, CALLBACKS });
    expect(spy).not.toHaveBeenCalled();
    expect(sends).toEqual([expect.objectContaining({ awaitsAttempt: 1 })]);
    expect(counts.d1).toBe(1);
  });

  it("a dead-lettered message: one batch closes the event", async () => {
    const merchant = await seedMerchant();
    const message = await seedResolvedSession(merchant);
    const { env, counts } = countingEnv();
    await runQueue("callbacks-dead-letter", [message], env);
    expect(await eventState(message.webhookId)).toBe("failed");
    expect(counts.d1).toBe(1);
  });
});
