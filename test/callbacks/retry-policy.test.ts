import { describe, expect, it } from "vitest";
import {
  decide,
  internalRetrySeconds,
  MAX_ATTEMPTS,
  MAX_INTERNAL_RETRY_SECONDS,
  MAX_QUEUE_DELAY_SECONDS,
  parseRetryAfter,
  queueDelaySeconds,
  remainingWaitSeconds,
  RETRY_SCHEDULE_SECONDS,
  scheduledWaitSeconds,
} from "../../src/callbacks/retry-policy";

const NOW = Date.parse("2026-11-22T06:30:00.000Z");
const response = (status: number, retryAfter?: string) => ({ kind: "response" as const, status, retryAfter });

describe("callback retry policy", () => {
  describe("happy", () => {
    it("follows the Standard Webhooks schedule: 10 attempts, the first immediately", () => {
      expect(RETRY_SCHEDULE_SECONDS).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
      expect(MAX_ATTEMPTS).toBe(10);
      for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
        expect(decide(response(500), attempt, NOW, 0)).toEqual({ action: "retry", waitSeconds: RETRY_SCHEDULE_SECONDS[attempt] });
      }
    });

    it("adds jitter of at most 10 %, never retrying earlier than the schedule", () => {
      expect(scheduledWaitSeconds(2, 0)).toBe(300);
      expect(scheduledWaitSeconds(2, 0.999)).toBe(329);
      expect(scheduledWaitSeconds(9, 0.5)).toBe(86400 + 4320);
      // 10 % of 5 s rounds down to nothing: the second attempt is 5 s after the first.
      expect(scheduledWaitSeconds(1, 0.999)).toBe(5);
    });

    it("treats any 2xx as delivered", () => {
      for (const status of [200, 201, 202, 204, 299]) expect(decide(response(status), 1, NOW, 0)).toEqual({ action: "delivered" });
    });
  });

  describe("error", () => {
    it("retries a timeout, a network error, a 5xx, a 4xx and a 3xx on the schedule", () => {
      for (const outcome of [
        { kind: "error" as const, error: "timeout" as const },
        { kind: "error" as const, error: "network_error" as const },
        response(500),
        response(404),
        response(302),
      ]) {
        expect(decide(outcome, 3, NOW, 0)).toEqual({ action: "retry", waitSeconds: 1800 });
      }
    });

    it("stops at once on 410 Gone", () => {
      expect(decide(response(410), 1, NOW, 0)).toEqual({ action: "give_up", reason: "gone" });
    });

    it("backs off exponentially from the queue's delivery count after an internal failure, up to 30 minutes", () => {
      expect([1, 2, 3, 4, 5, 6, 7, 100].map(internalRetrySeconds)).toEqual([60, 120, 240, 480, 960, 1800, 1800, 1800]);
      expect(MAX_INTERNAL_RETRY_SECONDS).toBe(1800);
    });

    it("lets a message that keeps failing use up the queue's 100 retries within its 4-day retention", () => {
      // Retention deletes a message without dead-lettering it: the retries must run out well before.
      let total = 0;
      for (let attempts = 1; attempts <= 100; attempts++) total += internalRetrySeconds(attempts);
      const scheduleOnOneMessage = RETRY_SCHEDULE_SECONDS.slice(0, 7).reduce((a, b) => a + b, 0) * 1.1;
      expect(total).toBeLessThan(2 * 86400 + 3600);
      expect(total + scheduleOnOneMessage).toBeLessThan(4 * 86400);
    });

    it("gives up after the tenth attempt", () => {
      expect(decide(response(500), MAX_ATTEMPTS, NOW, 0)).toEqual({ action: "give_up", reason: "attempts_exhausted" });
      expect(decide(response(429, "5"), MAX_ATTEMPTS, NOW, 0)).toEqual({ action: "give_up", reason: "attempts_exhausted" });
    });

    it("honours Retry-After on 429 and 503, in seconds or as an HTTP date, when it is longer than the schedule", () => {
      expect(decide(response(429, "120"), 1, NOW, 0.9)).toEqual({ action: "retry", waitSeconds: 120 });
      expect(decide(response(503, new Date(NOW + 600_000).toUTCString()), 1, NOW, 0)).toEqual({ action: "retry", waitSeconds: 600 });
      expect(decide(response(503, "7200"), 3, NOW, 0)).toEqual({ action: "retry", waitSeconds: 7200 });
    });

    it("keeps the scheduled wait, with its jitter, when Retry-After is shorter", () => {
      // Retry-After: 0 during a deploy must not burn the remaining attempts in seconds.
      expect(decide(response(503, "0"), 2, NOW, 0)).toEqual({ action: "retry", waitSeconds: 300 });
      expect(decide(response(503, "1"), 6, NOW, 0)).toEqual({ action: "retry", waitSeconds: 36000 });
      expect(decide(response(429, "120"), 3, NOW, 0.5)).toEqual({ action: "retry", waitSeconds: 1800 + 90 });
      expect(decide(response(429, new Date(NOW - 60_000).toUTCString()), 4, NOW, 0)).toEqual({ action: "retry", waitSeconds: 7200 });
    });

    it("ignores Retry-After on other statuses and when it cannot be read", () => {
      expect(decide(response(500, "120"), 1, NOW, 0)).toEqual({ action: "retry", waitSeconds: 5 });
      expect(decide(response(429, "soon"), 1, NOW, 0)).toEqual({ action: "retry", waitSeconds: 5 });
      expect(decide(response(429), 2, NOW, 0)).toEqual({ action: "retry", waitSeconds: 300 });
      expect(parseRetryAfter("-5", NOW)).toBeNull();
      expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(0);
    });
  });

  describe("security", () => {
    it("caps a receiver's Retry-After at 24 hours", () => {
      expect(parseRetryAfter("999999999", NOW)).toBe(86400);
      expect(decide(response(429, "999999999"), 1, NOW, 0)).toEqual({ action: "retry", waitSeconds: 86400 });
      // The last scheduled wait is 24 h plus jitter: a capped Retry-After does not shorten it either.
      expect(decide(response(429, "999999999"), 9, NOW, 0.5)).toEqual({ action: "retry", waitSeconds: 86400 + 4320 });
    });

    it("takes a wait longer than the queue's 12-hour maximum in steps", () => {
      expect(queueDelaySeconds(50400)).toBe(MAX_QUEUE_DELAY_SECONDS);
      expect(queueDelaySeconds(120)).toBe(120);
      const notBefore = new Date(NOW + 50400 * 1000).toISOString();
      expect(remainingWaitSeconds(notBefore, NOW)).toBe(50400);
      expect(remainingWaitSeconds(notBefore, NOW + MAX_QUEUE_DELAY_SECONDS * 1000)).toBe(7200);
      expect(remainingWaitSeconds(notBefore, NOW + 50400 * 1000)).toBe(0);
      expect(remainingWaitSeconds(undefined, NOW)).toBe(0);
    });
  });
});
