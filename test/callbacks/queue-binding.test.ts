import { env } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventState, seedResolvedSession } from "../helpers/callbacks";
import { seedMerchant } from "../helpers/seed";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("callbacks through the real queue", () => {
  describe("happy", () => {
    it("a message put on CALLBACKS, as the session Durable Object does, reaches the Worker's consumer and is POSTed signed", async () => {
      const merchant = await seedMerchant();
      const message = await seedResolvedSession(merchant);
      const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));

      await env.CALLBACKS.send(message);

      // The queue hands the batch to the consumer on its own schedule (at once in tests): wait for it.
      await vi.waitFor(async () => expect(await eventState(message.webhookId)).toBe("delivered"));
      expect(spy).toHaveBeenCalledTimes(1);
      const [input, init] = spy.mock.calls[0]!;
      expect(String(input)).toBe(message.callbackUrl);
      const headers = Object.fromEntries(new Headers(init!.headers));
      expect(new Webhook(merchant.signingSecret).verify(String(init!.body), headers)).toMatchObject({ data: message.data });
    });
  });
});
