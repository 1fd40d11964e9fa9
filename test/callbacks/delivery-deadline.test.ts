// One callback attempt's deadline (src/callbacks/deliver.ts): a receiver that does not answer within 15 s
// is a timeout; an answered attempt leaves no timer running after it (the session's object, where the
// first attempt runs, was otherwise kept busy 15 s longer: docs/performance.md, 27 Nov 2026).
import { afterEach, describe, expect, it, vi } from "vitest";
import { attemptDelivery, DELIVERY_TIMEOUT_MS } from "../../src/callbacks/deliver";

const event = {
  webhookId: "msg_deadline",
  callbackUrl: "https://shop.example.com/webhooks/age",
  type: "age_verification.completed",
  timestamp: "2026-11-27T10:00:00.000Z",
  data: {},
};
const secret = `whsec_${btoa("0123456789abcdef0123456789abcdef")}`;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("a callback attempt's deadline", () => {
  it("is a timeout when the receiver has not answered after 15 s, and the request was aborted", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let aborted: AbortSignal | undefined;
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_input, init) =>
        new Promise((_, reject) => {
          aborted = init!.signal!;
          init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason));
        }),
    );
    const attempt = attemptDelivery(event, [secret], undefined);
    await vi.advanceTimersByTimeAsync(DELIVERY_TIMEOUT_MS - 1);
    expect(aborted!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await attempt).outcome).toEqual({ kind: "error", error: "timeout" });
    expect(aborted!.aborted).toBe(true);
  });

  it("leaves no timer once the receiver has answered and its body is read", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok", { status: 200 }));
    const result = await attemptDelivery(event, [secret], undefined);
    expect(result.outcome).toEqual({ kind: "response", status: 200, retryAfter: null });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no timer after a network error either", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection refused"));
    const result = await attemptDelivery(event, [secret], undefined);
    expect(result.outcome).toEqual({ kind: "error", error: "network_error" });
    expect(vi.getTimerCount()).toBe(0);
  });
});
