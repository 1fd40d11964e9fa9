/// <reference types="vite/client" />
// The consumers reason about their queues' retry limits (the callbacks consumer about its last try on
// the dead-letter queue, the mail consumer about its own last attempt); the limits live in
// wrangler.toml. This keeps the two from drifting apart, in every environment.
import { describe, expect, it } from "vitest";
import { QUEUE_MAX_RETRIES } from "../../src/callbacks/consumer";
import { MAIL_MAX_ATTEMPTS, MAIL_QUEUE_MAX_RETRIES } from "../../src/mail/mail-consumer";
import wranglerToml from "../../wrangler.toml?raw";

/** Each consumer's queue and max_retries, in the [[queues.consumers]] tables and the inline ones. */
function consumers(): { queue: string; maxRetries: number }[] {
  const found: { queue: string; maxRetries: number }[] = [];
  for (const m of wranglerToml.matchAll(/queue\s*=\s*"([^"]+)"[^[\]]*?max_retries\s*=\s*(\d+)/g)) {
    found.push({ queue: m[1]!, maxRetries: Number(m[2]) });
  }
  return found;
}

describe("queue configuration", () => {
  it("every callbacks consumer, in every environment, retries as many times as the consumer code assumes", () => {
    const callbacks = consumers().filter((c) => c.queue.includes("callbacks"));
    expect(callbacks.length).toBe(6); // callbacks and its dead-letter queue: development, production, staging
    expect(new Set(callbacks.map((c) => c.maxRetries))).toEqual(new Set([QUEUE_MAX_RETRIES]));
  });

  it("every mail consumer retries above the consumer's own last attempt", () => {
    const mail = consumers().filter((c) => c.queue.includes("mail"));
    expect(mail.length).toBe(6);
    expect(new Set(mail.map((c) => c.maxRetries))).toEqual(new Set([MAIL_QUEUE_MAX_RETRIES]));
    expect(MAIL_QUEUE_MAX_RETRIES).toBeGreaterThan(MAIL_MAX_ATTEMPTS);
  });
});
