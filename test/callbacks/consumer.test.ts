import { env } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CLAIM_TTL_SECONDS, QUEUE_MAX_RETRIES } from "../../src/callbacks/consumer";
import type { CallbackMessage } from "../../src/session/callback-message";
import { MAX_ATTEMPTS, MAX_QUEUE_DELAY_SECONDS, RETRY_SCHEDULE_SECONDS } from "../../src/callbacks/retry-policy";
import { apiKeys, callbackAttempts, callbackEvents } from "../../src/db/schema";
import { eq } from "drizzle-orm";
import { attemptsOf, CALLBACK_URL, eventState, runCallbacks, runQueue, seedResolvedSession } from "../helpers/callbacks";
import { seedMerchant } from "../helpers/seed";
import { dbHolding, dbOfAccount } from "../helpers/shards";
import { shardBindings } from "../helpers/shards";
import { shardBindingName } from "../../src/config/shards-setting";

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

function answer(...responses: Array<() => Response | Promise<Response>>) {
  const spy = vi.spyOn(globalThis, "fetch");
  for (const make of responses) spy.mockImplementationOnce(async () => make());
  return spy;
}
const status =
  (code: number, headers: Record<string, string> = {}) =>
  () =>
    new Response(code === 204 ? null : "ok", { status: code, headers });

/** The request the consumer sent on call `n` of the fetch spy. */
function sent(spy: { mock: { calls: unknown[][] } }, n = 0) {
  const [input, init] = spy.mock.calls[n] as FetchArgs;
  const headers = new Headers(init?.headers);
  return { url: String(input), init: init!, headers, body: String(init?.body), headerRecord: Object.fromEntries(headers) };
}

/** A CALLBACKS binding that records what the consumer enqueues instead of delivering it. */
function recordingQueue() {
  const sends: { body: CallbackMessage; options?: QueueSendOptions }[] = [];
  const queue = {
    send: async (body: CallbackMessage, options?: QueueSendOptions) => void sends.push({ body, options }),
    sendBatch: async () => undefined,
  } as unknown as Queue;
  return { sends, bindings: { ...env, CALLBACKS: queue } as Env };
}

/** Bindings whose D1 fails every statement, as during an outage. */
function withoutD1(): Env {
  const fail = () => {
    throw new Error("D1_ERROR: database unavailable");
  };
  const DB = { prepare: fail, batch: async () => fail(), exec: async () => fail(), dump: async () => fail() } as unknown as D1Database;
  // Every shard is down: the merchant's may be any of them.
  return { ...env, ...Object.fromEntries(shardBindings().map((_, shard) => [shardBindingName(shard), DB])) } as Env;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("callback queue consumer", () => {
  describe("happy", () => {
    it("POSTs a signed callback that the Standard Webhooks library verifies with the key's secret, then acks", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = answer(status(200));

      const { result, retried } = await runCallbacks([message]);

      expect(spy).toHaveBeenCalledTimes(1);
      const request = sent(spy);
      expect(request.url).toBe(CALLBACK_URL);
      expect(request.init.method).toBe("POST");
      expect(request.headers.get("content-type")).toBe("application/json");
      expect(request.headers.get("webhook-id")).toBe(message.webhookId);
      const timestamp = Number(request.headers.get("webhook-timestamp"));
      expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
      const verified = new Webhook(merchant.signingSecret).verify(request.body, request.headerRecord);
      expect(verified).toEqual({ type: "age_verification.session.approved", timestamp: message.timestamp, data: message.data });

      expect(result.explicitAcks).toEqual([expect.any(String)]);
      expect(retried).toEqual([]);
      expect(await eventState(message.webhookId)).toBe("delivered");
      const attempts = await attemptsOf(message.webhookId);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({ attempt: 1, statusCode: 200, error: null });
    });

    it("delivers each resolution type with the polled session as data", async () => {
      const merchant = await seedMerchant();
      const denied = await seedResolvedSession(merchant, { status: "DENIED" });
      const expired = await seedResolvedSession(merchant, { status: "EXPIRED" });
      const spy = answer(status(204), status(202));
      await runCallbacks([denied, expired]);
      const bodies = [sent(spy, 0), sent(spy, 1)].map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => b.type).sort()).toEqual(["age_verification.session.denied", "age_verification.session.expired"]);
      const expiredBody = bodies.find((b) => b.type.endsWith("expired"));
      expect(expiredBody.data).toMatchObject({ status: "EXPIRED", above_age_required: false, assurance: null, receipt_id: null });
      expect(await eventState(denied.webhookId)).toBe("delivered");
      expect(await eventState(expired.webhookId)).toBe("delivered");
    });

    it("acks or retries each message of a batch on its own", async () => {
      const merchant = await seedMerchant();
      const first = await seedResolvedSession(merchant, { callbackUrl: "https://one.example/hook" });
      const second = await seedResolvedSession(merchant, { callbackUrl: "https://two.example/hook" });
      vi.spyOn(globalThis, "fetch").mockImplementation(
        async (input) => new Response("", { status: String(input).includes("one.example") ? 200 : 500 }),
      );
      const { batch, result, retried } = await runCallbacks([first, second]);
      expect(result.explicitAcks).toEqual([batch.messages[0]!.id]);
      expect(retried).toEqual([{ msgId: batch.messages[1]!.id, delaySeconds: 5 }]);
      expect(result.retryBatch.retry).toBe(false);
    });
  });

  describe("error", () => {
    it("retries a 500 after the scheduled delay and keeps the event pending", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      answer(status(500), status(500));

      const first = await runCallbacks([message]);
      expect(first.retried).toEqual([{ msgId: first.batch.messages[0]!.id, delaySeconds: RETRY_SCHEDULE_SECONDS[1] }]);
      const second = await runCallbacks([message]);
      const delay = second.retried[0]!.delaySeconds!;
      // Third attempt: 5 minutes after the second, plus at most 10 % jitter.
      expect(delay).toBeGreaterThanOrEqual(300);
      expect(delay).toBeLessThan(330);

      expect(await eventState(message.webhookId)).toBe("pending");
      expect((await attemptsOf(message.webhookId)).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, 500, null],
        [2, 500, null],
      ]);
    });

    it("retries a timeout, recorded as the error kind without a status code", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi
        .spyOn(globalThis, "fetch")
        .mockRejectedValueOnce(new DOMException("The operation was aborted due to timeout", "TimeoutError"));

      const { retried } = await runCallbacks([message]);

      expect(sent(spy).init.signal).toBeInstanceOf(AbortSignal);
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: 5 })]);
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ statusCode: null, error: "timeout" })]);
      expect(await eventState(message.webhookId)).toBe("pending");
    });

    it("retries a network failure", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      vi.spyOn(globalThis, "fetch").mockRejectedValueOnce(new TypeError("Network connection lost."));
      const { retried } = await runCallbacks([message]);
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: 5 })]);
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ statusCode: null, error: "network_error" })]);
    });

    it("treats a 302 as a failure and does not follow it", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = answer(() => new Response(null, { status: 302, headers: { location: "https://elsewhere.example/" } }));

      const { retried } = await runCallbacks([message]);

      expect(spy).toHaveBeenCalledTimes(1);
      expect(sent(spy).init.redirect).toBe("manual");
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: 5 })]);
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ statusCode: 302, error: "redirect_not_followed" })]);
    });

    it("honours Retry-After: 120 on a 429", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      answer(status(429, { "retry-after": "120" }));
      const { batch, retried } = await runCallbacks([message]);
      expect(retried).toEqual([{ msgId: batch.messages[0]!.id, delaySeconds: 120 }]);
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ statusCode: 429 })]);
    });

    it("keeps the scheduled wait when Retry-After is shorter, so Retry-After: 0 cannot burn the attempts", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      answer(status(503, { "retry-after": "0" }), status(503, { "retry-after": "0" }));
      const first = await runCallbacks([message]);
      expect(first.retried).toEqual([{ msgId: first.batch.messages[0]!.id, delaySeconds: RETRY_SCHEDULE_SECONDS[1] }]);
      const second = await runCallbacks([message]);
      const delay = second.retried[0]!.delaySeconds!;
      expect(delay).toBeGreaterThanOrEqual(RETRY_SCHEDULE_SECONDS[2]);
      expect(delay).toBeLessThan(RETRY_SCHEDULE_SECONDS[2] * 1.1);
      expect(await eventState(message.webhookId)).toBe("pending");
    });

    it("stops retrying on 410 Gone and marks the event failed", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      answer(status(410));
      const { result, retried } = await runCallbacks([message]);
      expect(retried).toEqual([]);
      expect(result.explicitAcks).toHaveLength(1);
      expect(await eventState(message.webhookId)).toBe("failed");
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ statusCode: 410 })]);
    });

    it("sends the same webhook-id on every attempt, each with its own timestamp, and marks the event failed after the last", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 500 }));
      const { sends, bindings } = recordingQueue();

      const delays: (number | undefined)[] = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const { result, retried } = await runCallbacks([message], bindings);
        if (attempt < MAX_ATTEMPTS) expect(await eventState(message.webhookId)).toBe("pending");
        delays.push(retried[0]?.delaySeconds ?? (result.explicitAcks.length ? -1 : undefined));
      }

      expect(spy).toHaveBeenCalledTimes(MAX_ATTEMPTS);
      const ids = spy.mock.calls.map((_, n) => sent(spy, n).headers.get("webhook-id"));
      expect(new Set(ids)).toEqual(new Set([message.webhookId]));
      for (let n = 0; n < MAX_ATTEMPTS; n++) {
        const request = sent(spy, n);
        expect(() => new Webhook(merchant.signingSecret).verify(request.body, request.headerRecord)).not.toThrow();
      }
      // Attempts 2 to 7 wait on the queue; the waits of 14 h and 20 h and 24 h (over the queue's 12 h) are
      // re-sent as new messages that carry their due time; the tenth attempt is the last.
      expect(delays.slice(0, 6).map((d, i) => d! >= RETRY_SCHEDULE_SECONDS[i + 1]! && d! <= RETRY_SCHEDULE_SECONDS[i + 1]! * 1.1)).toEqual(
        Array(6).fill(true),
      );
      expect(delays.slice(6)).toEqual([-1, -1, -1, -1]);
      expect(sends).toHaveLength(3);
      for (const [i, { body, options }] of sends.entries()) {
        expect(options).toEqual({ delaySeconds: MAX_QUEUE_DELAY_SECONDS });
        expect(body).toMatchObject({ webhookId: message.webhookId, attempt: 8 + i });
        const wait = (Date.parse(body.notBefore!) - Date.now()) / 1000;
        expect(wait).toBeGreaterThan(RETRY_SCHEDULE_SECONDS[7 + i]! - 60);
        expect(wait).toBeLessThanOrEqual(RETRY_SCHEDULE_SECONDS[7 + i]! * 1.1);
      }

      expect(await eventState(message.webhookId)).toBe("failed");
      const attempts = await attemptsOf(message.webhookId);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(attempts.every((a) => a.statusCode === 500)).toBe(true);
    });

    it("waits 12 hours on the same message when the step message cannot be enqueued", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 500 }));
      const failingQueue = { send: async () => Promise.reject(new Error("queue unavailable")) } as unknown as Queue;
      const bindings = { ...env, CALLBACKS: failingQueue } as Env;
      for (let attempt = 1; attempt < 7; attempt++) await runCallbacks([message], bindings);
      // The seventh attempt fails; the 14-hour wait after it cannot be re-sent as a new message.
      const { retried } = await runCallbacks([message], bindings);
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: MAX_QUEUE_DELAY_SECONDS })]);
      expect(await attemptsOf(message.webhookId)).toHaveLength(7);
      expect(await eventState(message.webhookId)).toBe("pending");
    });

    it("waits again, without an attempt, while a stepped message is not yet due", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi.spyOn(globalThis, "fetch");
      const notBefore = new Date(Date.now() + 20 * 3600 * 1000).toISOString();
      const { retried } = await runCallbacks([{ ...message, notBefore }]);
      expect(spy).not.toHaveBeenCalled();
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: MAX_QUEUE_DELAY_SECONDS })]);

      const soon = new Date(Date.now() + 90_000).toISOString();
      const next = await runCallbacks([{ ...message, notBefore: soon }]);
      const delay = next.retried[0]!.delaySeconds!;
      expect(delay).toBeGreaterThan(80);
      expect(delay).toBeLessThanOrEqual(90);
      expect(await attemptsOf(message.webhookId)).toEqual([]);
    });

    it("acks a redelivered message of an event already delivered, without a second POST", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = answer(status(200));
      await runCallbacks([message]);
      const { result } = await runCallbacks([message]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(result.explicitAcks).toHaveLength(1);
      expect(await attemptsOf(message.webhookId)).toHaveLength(1);
    });

    it("acks without a POST a message whose event is gone, and closes an event whose signing key is gone as failed", async () => {
      const merchant = await seedMerchant();
      const eventGone = await seedResolvedSession(merchant);
      await (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", eventGone.webhookId))
        .delete(callbackEvents)
        .where(eq(callbackEvents.id, eventGone.webhookId));
      const other = await seedMerchant();
      const keyGone = await seedResolvedSession(other);
      await (await dbOfAccount(other.account.id)).delete(apiKeys).where(eq(apiKeys.id, other.keyId));
      const spy = vi.spyOn(globalThis, "fetch");
      const { result, retried } = await runCallbacks([eventGone, keyGone]);
      expect(spy).not.toHaveBeenCalled();
      expect(result.explicitAcks).toHaveLength(2);
      expect(retried).toEqual([]);
      expect(await eventState(keyGone.webhookId)).toBe("failed");
      expect(await attemptsOf(keyGone.webhookId)).toEqual([
        expect.objectContaining({ attempt: 1, statusCode: null, error: "signing_key_gone" }),
      ]);
    });

    it("retries only the message whose processing failed", async () => {
      const merchant = await seedMerchant();
      const good = await seedResolvedSession(merchant);
      const other = await seedMerchant();
      const broken = await seedResolvedSession(other);
      // A signing secret that cannot be decrypted: processing throws for this message only.
      await (await dbOfAccount(other.account.id))
        .update(apiKeys)
        .set({ signingSecretEnc: "v1.AAAA.AAAA" })
        .where(eq(apiKeys.id, other.keyId));
      answer(status(200));
      const { batch, result, retried } = await runCallbacks([good, broken]);
      expect(result.explicitAcks).toEqual([batch.messages[0]!.id]);
      expect(retried).toEqual([{ msgId: batch.messages[1]!.id, delaySeconds: 60 }]);
      expect(await eventState(broken.webhookId)).toBe("pending");
    });

    it("backs off exponentially, from the queue's delivery count, while processing keeps failing", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await (await dbOfAccount(merchant.account.id))
        .update(apiKeys)
        .set({ signingSecretEnc: "v1.AAAA.AAAA" })
        .where(eq(apiKeys.id, merchant.keyId));
      const spy = vi.spyOn(globalThis, "fetch");
      const delays: (number | undefined)[] = [];
      for (const attempts of [1, 2, 3, 6, 60]) {
        const { retried } = await runQueue("callbacks", [message], env, { attempts });
        delays.push(retried[0]?.delaySeconds);
      }
      expect(delays).toEqual([60, 120, 240, 1800, 1800]);
      expect(spy).not.toHaveBeenCalled();
      expect(await eventState(message.webhookId)).toBe("pending");
      expect(await attemptsOf(message.webhookId)).toEqual([]);
    });

    it("gives back an attempt it could not sign, so the retry sends that same attempt", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const [key] = await (await dbOfAccount(merchant.account.id)).select().from(apiKeys).where(eq(apiKeys.id, merchant.keyId));
      await (await dbOfAccount(merchant.account.id))
        .update(apiKeys)
        .set({ signingSecretEnc: "v1.AAAA.AAAA" })
        .where(eq(apiKeys.id, merchant.keyId));
      const spy = answer(status(200));
      const failed = await runCallbacks([message]);
      expect(failed.retried).toEqual([expect.objectContaining({ delaySeconds: 60 })]);
      expect(spy).not.toHaveBeenCalled();

      await (await dbOfAccount(merchant.account.id))
        .update(apiKeys)
        .set({ signingSecretEnc: key!.signingSecretEnc })
        .where(eq(apiKeys.id, merchant.keyId));
      const { result } = await runCallbacks([message]);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(result.explicitAcks).toHaveLength(1);
      expect((await attemptsOf(message.webhookId)).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([[1, 200, null]]);
    });

    it("retries with back-off while D1 is unavailable, without losing the event", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi.spyOn(globalThis, "fetch");
      const { result, retried } = await runQueue("callbacks", [message], withoutD1(), { attempts: 4 });
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: 480 })]);
      expect(result.explicitAcks).toEqual([]);
      expect(spy).not.toHaveBeenCalled();
      expect(await eventState(message.webhookId)).toBe("pending");
    });

    it("marks a dead-lettered event failed with a record", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi.spyOn(globalThis, "fetch");
      const { result } = await runQueue("callbacks-dead-letter", [message]);
      expect(spy).not.toHaveBeenCalled();
      expect(result.explicitAcks).toHaveLength(1);
      expect(await eventState(message.webhookId)).toBe("failed");
      expect(await attemptsOf(message.webhookId)).toEqual([
        expect.objectContaining({ attempt: 1, statusCode: null, error: "dead_lettered" }),
      ]);
    });

    it("retries a dead-lettered message with back-off while D1 is unavailable, then marks the event failed", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const down = await runQueue("callbacks-dead-letter", [message], withoutD1(), { attempts: 3 });
      expect(down.retried).toEqual([expect.objectContaining({ delaySeconds: 240 })]);
      expect(down.result.explicitAcks).toEqual([]);
      expect(await eventState(message.webhookId)).toBe("pending");

      const back = await runQueue("callbacks-dead-letter", [message], env, { attempts: 4 });
      expect(back.result.explicitAcks).toHaveLength(1);
      expect(await eventState(message.webhookId)).toBe("failed");
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ error: "dead_lettered" })]);
    });

    it("logs by webhook-id an event the dead-letter consumer could not close before its retries ran out", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const lines: string[] = [];
      vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
      await runQueue("callbacks-dead-letter", [message], withoutD1(), { attempts: QUEUE_MAX_RETRIES + 1 });
      const output = lines.join("\n");
      expect(output).toContain("left pending");
      expect(output).toContain(message.webhookId);
    });

    it("leaves a delivered event alone when a duplicate reaches the dead-letter queue", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      answer(status(200));
      await runCallbacks([message]);
      await runQueue("callbacks-dead-letter", [message]);
      expect(await eventState(message.webhookId)).toBe("delivered");
      expect(await attemptsOf(message.webhookId)).toHaveLength(1);
    });
  });

  describe("duplicate copies of one message", () => {
    /** A fetch whose answer waits until `release` is called, so a second copy can run meanwhile. */
    function heldFetch(answerStatus: number) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
        await gate;
        return new Response("", { status: answerStatus });
      });
      return { spy, release };
    }

    /**
     * Marks attempt `attempt` of an event (after as many failed ones) as claimed by another consumer,
     * `ageSeconds` ago, without an outcome.
     */
    const claimedElsewhere = async (webhookId: string, ageSeconds: number, attempt = 1) => {
      const at = new Date(Date.now() - ageSeconds * 1000).toISOString();
      const held = (n: number) => n === attempt;
      return (await dbHolding("SELECT 1 FROM callback_events WHERE id = ?", webhookId)).insert(callbackAttempts).values(
        Array.from({ length: attempt }, (_, i) => ({
          eventId: webhookId,
          attempt: i + 1,
          at,
          durationMs: held(i + 1) ? 0 : 1,
          statusCode: held(i + 1) ? null : 500,
          error: held(i + 1) ? "in_progress" : null,
        })),
      );
    };

    it("delivers once and schedules one retry when the same message is processed twice at once", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const { sends, bindings } = recordingQueue();
      vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 500 }));

      const runs = await Promise.all([runCallbacks([message], bindings), runCallbacks([message], bindings)]);

      expect(globalThis.fetch).toHaveBeenCalledTimes(1);
      expect(runs.flatMap((r) => r.retried)).toEqual([expect.objectContaining({ delaySeconds: RETRY_SCHEDULE_SECONDS[1] })]);
      expect(runs.flatMap((r) => r.result.explicitAcks)).toHaveLength(1);
      // The copy that lost either saw the outcome at once or stands aside for attempt 1: never a new chain.
      expect(sends.every(({ body }) => body.awaitsAttempt === 1)).toBe(true);
      expect((await attemptsOf(message.webhookId)).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([[1, 500, null]]);
      expect(await eventState(message.webhookId)).toBe("pending");
    });

    it("a copy arriving while another delivers stands aside, then is dropped once that attempt has an outcome", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const { sends, bindings } = recordingQueue();
      const { spy, release } = heldFetch(500);

      const holder = runCallbacks([message], bindings);
      await vi.waitFor(() => expect(spy).toHaveBeenCalledTimes(1));
      const second = await runCallbacks([message], bindings);
      release();
      const first = await holder;

      expect(spy).toHaveBeenCalledTimes(1);
      expect(first.retried).toEqual([expect.objectContaining({ delaySeconds: RETRY_SCHEDULE_SECONDS[1] })]);
      expect(second.retried).toEqual([]);
      expect(second.result.explicitAcks).toHaveLength(1);
      expect(sends).toHaveLength(1);
      expect(sends[0]!.options).toEqual({ delaySeconds: CLAIM_TTL_SECONDS });
      expect(sends[0]!.body).toMatchObject({ webhookId: message.webhookId, awaitsAttempt: 1 });

      // The stand-aside message comes back after the claim would have expired: attempt 1 has its outcome.
      const back = await runCallbacks([{ ...sends[0]!.body, notBefore: undefined }], bindings);
      expect(spy).toHaveBeenCalledTimes(1);
      expect(back.result.explicitAcks).toHaveLength(1);
      expect(back.retried).toEqual([]);
      expect((await attemptsOf(message.webhookId)).map((a) => a.attempt)).toEqual([1]);
    });

    it("takes over an attempt whose holder stopped before recording an outcome, and carries the event on", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await claimedElsewhere(message.webhookId, CLAIM_TTL_SECONDS + 30);
      const spy = answer(status(500), status(200));
      const waiting = { ...message, awaitsAttempt: 1 };

      const first = await runCallbacks([waiting]);
      expect(spy).toHaveBeenCalledTimes(1);
      // Attempt 2 failed: the third comes 5 minutes later, plus at most 10 % jitter.
      expect(first.retried[0]!.delaySeconds).toBeGreaterThanOrEqual(RETRY_SCHEDULE_SECONDS[2]);
      expect(first.retried[0]!.delaySeconds).toBeLessThan(RETRY_SCHEDULE_SECONDS[2] * 1.1);
      // Its own retry keeps the body it came with: it is not mistaken for a duplicate.
      const second = await runCallbacks([waiting]);
      expect(spy).toHaveBeenCalledTimes(2);
      expect(second.result.explicitAcks).toHaveLength(1);

      expect((await attemptsOf(message.webhookId)).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, null, "interrupted"],
        [2, 500, null],
        [3, 200, null],
      ]);
      expect(await eventState(message.webhookId)).toBe("delivered");
    });

    it("a redelivery finding an attempt claimed moments ago neither delivers nor schedules retries", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await claimedElsewhere(message.webhookId, 1);
      const { sends, bindings } = recordingQueue();
      const spy = vi.spyOn(globalThis, "fetch");

      const { result, retried } = await runCallbacks([message], bindings);

      expect(spy).not.toHaveBeenCalled();
      expect(retried).toEqual([]);
      expect(result.explicitAcks).toHaveLength(1);
      expect(sends.map((s) => s.body.awaitsAttempt)).toEqual([1]);
      const wait = (Date.parse(sends[0]!.body.notBefore!) - Date.now()) / 1000;
      expect(wait).toBeGreaterThan(CLAIM_TTL_SECONDS - 5);
      expect(wait).toBeLessThanOrEqual(CLAIM_TTL_SECONDS);
      expect(await attemptsOf(message.webhookId)).toEqual([expect.objectContaining({ attempt: 1, error: "in_progress" })]);
    });

    it("does not mark an event failed while its last attempt is still being sent by another copy", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await claimedElsewhere(message.webhookId, 1, MAX_ATTEMPTS);
      const { sends, bindings } = recordingQueue();
      const { result } = await runCallbacks([message], bindings);
      expect(result.explicitAcks).toHaveLength(1);
      expect(sends.map((s) => s.body.awaitsAttempt)).toEqual([MAX_ATTEMPTS]);
      expect(await eventState(message.webhookId)).toBe("pending");
      expect(await attemptsOf(message.webhookId)).toHaveLength(MAX_ATTEMPTS);
    });

    it("closes the event failed when the holder of its last attempt stopped, instead of standing aside for ever", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await claimedElsewhere(message.webhookId, CLAIM_TTL_SECONDS + 30, MAX_ATTEMPTS);
      const { sends, bindings } = recordingQueue();
      const spy = vi.spyOn(globalThis, "fetch");
      const { result, retried } = await runCallbacks([{ ...message, awaitsAttempt: MAX_ATTEMPTS }], bindings);
      expect(spy).not.toHaveBeenCalled();
      expect(sends).toEqual([]);
      expect(retried).toEqual([]);
      expect(result.explicitAcks).toHaveLength(1);
      expect(await eventState(message.webhookId)).toBe("failed");
      expect((await attemptsOf(message.webhookId)).slice(-2).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [MAX_ATTEMPTS, null, "interrupted"],
        [MAX_ATTEMPTS + 1, null, "attempts_exhausted"],
      ]);
    });

    it("waits on the same message when the stand-aside message cannot be enqueued", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      await claimedElsewhere(message.webhookId, 1);
      const failingQueue = { send: async () => Promise.reject(new Error("queue unavailable")) } as unknown as Queue;
      const { result, retried } = await runCallbacks([message], { ...env, CALLBACKS: failingQueue } as Env);
      expect(retried).toEqual([expect.objectContaining({ delaySeconds: CLAIM_TTL_SECONDS })]);
      expect(result.explicitAcks).toEqual([]);
    });
  });

  describe("security", () => {
    it("never logs the signing secret, the callback body or the callback URL", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant, { callbackUrl: "https://secret-path.example/hook?token=abc" });
      const lines: string[] = [];
      for (const level of ["log", "warn", "error", "info", "debug"] as const) {
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
      }
      answer(status(500), status(410));
      await runCallbacks([message]);
      await runCallbacks([message]);
      const output = lines.join("\n");
      expect(output).toContain(message.webhookId);
      expect(output).not.toContain(merchant.signingSecret);
      expect(output).not.toContain(merchant.signingSecret.slice(6));
      expect(output).not.toContain("secret-path");
      expect(output).not.toContain(message.data.receipt_id!);
    });

    it("reads at most 64 KiB of a response however much the receiver sends", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      let pulled = 0;
      const chunk = new Uint8Array(16 * 1024);
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      answer(() => new Response(endless, { status: 200 }));
      const { result } = await runCallbacks([message]);
      expect(result.explicitAcks).toHaveLength(1);
      expect(pulled).toBeLessThanOrEqual(64 * 1024 + 2 * chunk.byteLength);
      expect(await eventState(message.webhookId)).toBe("delivered");
    });

    it("does not verify with a tampered body or another key's secret", async () => {
      const merchant = await seedMerchant();
      const other = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = answer(status(200));
      await runCallbacks([message]);
      const request = sent(spy);
      const tampered = request.body.replace('"above_age_required":true', '"above_age_required":false');
      expect(tampered).not.toBe(request.body);
      expect(() => new Webhook(merchant.signingSecret).verify(tampered, request.headerRecord)).toThrow();
      expect(() => new Webhook(other.signingSecret).verify(request.body, request.headerRecord)).toThrow();
    });

    it("retries a batch from an unknown queue rather than acknowledging it", async () => {
      const { result } = await runQueue("someone-elses-queue", []);
      expect(result.retryBatch.retry).toBe(true);
    });
  });
});
