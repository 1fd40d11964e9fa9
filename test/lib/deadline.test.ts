// src/lib/deadline.ts: the outbound calls' deadline, and its timer gone once the call is over.
import { afterEach, describe, expect, it, vi } from "vitest";
import { withDeadline } from "../../src/lib/deadline";

/** Work that answers only when its signal aborts, with the abort's reason. */
const untilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));

afterEach(() => vi.useRealTimers());

describe("withDeadline", () => {
  it("aborts the work's signal with a TimeoutError once the time is up", async () => {
    const error = await withDeadline(20, untilAborted).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("TimeoutError");
  });

  it("answers what the work answers, and leaves no timer behind, answered or failed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let signal: AbortSignal | undefined;
    await expect(
      withDeadline(15_000, async (given) => {
        signal = given;
        expect(vi.getTimerCount()).toBe(1);
        return "answered";
      }),
    ).resolves.toBe("answered");
    expect(vi.getTimerCount()).toBe(0);
    await expect(withDeadline(15_000, async () => Promise.reject(new Error("refused")))).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
    // The deadline of finished work never fires.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(signal!.aborted).toBe(false);
  });

  it("aborts at the deadline and not before", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let settled: unknown;
    void withDeadline(15_000, untilAborted).catch((error: DOMException) => (settled = error.name));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe("TimeoutError");
  });
});
