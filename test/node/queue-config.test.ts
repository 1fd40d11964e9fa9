/// <reference types="vite/client" />
// The consumer reasons about the queue's retry limit (its last try on the dead-letter queue); the
// limit itself lives in wrangler.toml. This keeps the two from drifting apart.
import { describe, expect, it } from "vitest";
import { QUEUE_MAX_RETRIES } from "../../src/callbacks/consumer";
import wranglerToml from "../../wrangler.toml?raw";

describe("queue configuration", () => {
  it("every consumer, in every environment, retries as many times as the consumer code assumes", () => {
    const limits = [...wranglerToml.matchAll(/max_retries\s*=\s*(\d+)/g)].map((m) => Number(m[1]));
    expect(limits.length).toBe(4); // callbacks and its dead-letter queue, development and production
    expect(new Set(limits)).toEqual(new Set([QUEUE_MAX_RETRIES]));
  });
});
