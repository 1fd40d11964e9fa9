// The Worker's status-list source (src/session/status-lists.ts): what one isolate keeps, another finds
// through the Cache API (the in-isolate map alone would leave every other isolate fetching again), until
// the time the verifier chose; and the isolate's own map stays small.
import { describe, expect, it } from "vitest";
import { statusListSource } from "../../src/session/status-lists";
import type { CachedStatusList } from "../../src/digital-id";

const uri = () => `https://status.issuer.test/lists/${crypto.randomUUID()}`;
const entry = (byte: number): CachedStatusList => ({ token: new Uint8Array([byte, 1, 2, 3]), freshUntil: Date.now() + 600_000 });

describe("status-list source", () => {
  it("a list kept by one isolate is read by another through the Cache API, with the time it is fresh until", async () => {
    const where = uri();
    const kept = entry(7);
    await statusListSource().keep(where, kept);
    const elsewhere = statusListSource({ memory: new Map() });
    expect(await elsewhere.read(where)).toStrictEqual(kept);
    expect(await elsewhere.read(uri())).toBeUndefined();
  });

  it("a later copy replaces the earlier one", async () => {
    const where = uri();
    const source = statusListSource();
    await source.keep(where, entry(1));
    const later = entry(2);
    await source.keep(where, later);
    expect(await statusListSource({ memory: new Map() }).read(where)).toStrictEqual(later);
  });

  it("the isolate's map holds at most 64 lists, the oldest going first", async () => {
    const memory = new Map<string, CachedStatusList>();
    const source = statusListSource({ memory, cacheName: `isolate-bound-${crypto.randomUUID()}` });
    const first = uri();
    await source.keep(first, entry(0));
    for (let i = 1; i <= 64; i++) await source.keep(uri(), entry(i));
    expect(memory.size).toBe(64);
    expect(memory.has(first)).toBe(false);
  });
});
