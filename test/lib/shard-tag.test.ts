// The shard tag in ids, API keys and email-link tokens (docs/operations.md, src/lib/shard-tag.ts).
import { describe, expect, it } from "vitest";
import { MAX_SHARD, newTaggedValue, shardOfBytes, shardOfValue, taggedBytes } from "../../src/lib/shard-tag";
import { fromBase64Url, toBase64Url } from "../../src/lib/encoding";
import { newId, newTaggedId } from "../../src/lib/ids";

/** The tag computed here from its definition, not by the module: SHA-256("shard-tag" ‖ random ‖ shard), first 6 bytes. */
async function expectedCheck(random: Uint8Array, shard: number): Promise<Uint8Array> {
  const input = new Uint8Array([...new TextEncoder().encode("shard-tag"), ...random, shard >> 8, shard & 0xff]);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", input)).slice(0, 6);
}

describe("shard tags", () => {
  it("every shard round-trips, in ids (18 bytes) and keys or tokens (32 bytes)", async () => {
    for (const shard of [0, 1, 2, 7, 255, 256, 4096, MAX_SHARD]) {
      for (const length of [18, 32]) {
        const bytes = await taggedBytes(length, shard);
        expect(bytes.length).toBe(length);
        expect(await shardOfBytes(bytes)).toBe(shard);
      }
    }
  });

  it("lays the bytes out as the design says: random, 2 bytes of shard (big-endian), 6 check bytes", async () => {
    const bytes = await taggedBytes(32, 0x0102);
    expect([bytes[24], bytes[25]]).toEqual([0x01, 0x02]);
    expect(bytes.slice(26)).toEqual(await expectedCheck(bytes.slice(0, 24), 0x0102));
  });

  it("reads a value made before sharding (no tag) as shard 0", async () => {
    for (let i = 0; i < 50; i++) {
      expect(await shardOfValue(newId("usr"), 24)).toBe(0);
      expect(await shardOfBytes(crypto.getRandomValues(new Uint8Array(32)))).toBe(0);
    }
  });

  it("reads a tampered check or a changed shard number as shard 0", async () => {
    const bytes = await taggedBytes(32, 5);
    const tamperedCheck = bytes.slice();
    tamperedCheck[31]! ^= 1;
    expect(await shardOfBytes(tamperedCheck)).toBe(0);
    const otherShard = bytes.slice();
    otherShard[25] = 6; // a forger who rewrites the shard without a matching check
    expect(await shardOfBytes(otherShard)).toBe(0);
    const otherRandom = bytes.slice();
    otherRandom[0]! ^= 0x80;
    expect(await shardOfBytes(otherRandom)).toBe(0);
  });

  it("keeps the shapes: an account id is usr_ and 24 base64url characters, a key's body 43", async () => {
    expect(await newTaggedId("usr", 1)).toMatch(/^usr_[A-Za-z0-9_-]{24}$/);
    expect(await newTaggedValue(32, 1)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const key = `svc_sk_live_${await newTaggedValue(32, 3)}`;
    expect(await shardOfValue(key, 43)).toBe(3);
    expect(await shardOfValue(await newTaggedId("usr", 9), 24)).toBe(9);
  });

  it("reads anything malformed as shard 0 rather than failing", async () => {
    expect(await shardOfValue("usr_short", 24)).toBe(0);
    expect(await shardOfValue("usr_" + "!".repeat(24), 24)).toBe(0);
    expect(await shardOfBytes(new Uint8Array(4))).toBe(0);
    expect(toBase64Url(fromBase64Url("AAAA"))).toBe("AAAA");
  });

  it("refuses to tag a shard the two bytes cannot hold", async () => {
    await expect(taggedBytes(32, MAX_SHARD + 1)).rejects.toThrow(RangeError);
    await expect(taggedBytes(32, -1)).rejects.toThrow(RangeError);
  });
});
