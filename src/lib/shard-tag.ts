// Which D1 shard an account's data lives on, carried inside the values that start a request (docs/operations.md):
// account ids, API keys and email-link tokens end in 2 bytes of shard number (big-endian) and 6 check
// bytes, the first 6 of SHA-256("shard-tag" ‖ random part ‖ shard). So the hot paths reach the right
// shard without a lookup, and the shapes stay those of 1.x (same length, same alphabet).
// Reading: a value whose check holds names its shard; any other value is from before sharding, and all
// of those live on shard 0 (a random legacy value passes the 48-bit check with probability 2^-48).
// Unkeyed on purpose: a forged tag only routes a request to a shard where its key or token does not
// exist, which answers exactly as an unknown one does. One SHA-256 of a few dozen bytes per read.
// Web Crypto directly rather than ./crypto.ts (which uses a workerd-only call): the bench, in Node, reads
// the tag of the accounts it registers with this same module (test/bench/prepare.ts).
import { fromBase64Url, toBase64Url, utf8 } from "./encoding";

const DOMAIN = utf8("shard-tag");
const SHARD_BYTES = 2;
const CHECK_BYTES = 6;
const TAG_BYTES = SHARD_BYTES + CHECK_BYTES;
/** The highest shard number the 2 tag bytes can name. */
export const MAX_SHARD = 0xffff;

async function check(random: Uint8Array, shard: Uint8Array): Promise<Uint8Array> {
  const input = new Uint8Array(DOMAIN.length + random.length + shard.length);
  input.set(DOMAIN, 0);
  input.set(random, DOMAIN.length);
  input.set(shard, DOMAIN.length + random.length);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", input)).subarray(0, CHECK_BYTES);
}

/** `length` bytes: random, then the shard's tag. */
export async function taggedBytes(length: number, shard: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!Number.isInteger(shard) || shard < 0 || shard > MAX_SHARD) throw new RangeError(`shard ${shard} cannot be tagged`);
  if (length <= TAG_BYTES) throw new RangeError("too short to carry a shard tag");
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  const random = bytes.subarray(0, length - TAG_BYTES);
  const shardBytes = bytes.subarray(length - TAG_BYTES, length - CHECK_BYTES);
  shardBytes[0] = shard >> 8;
  shardBytes[1] = shard & 0xff;
  bytes.set(await check(random, shardBytes), length - CHECK_BYTES);
  return bytes;
}

/** The shard the bytes name when their check holds; 0 (the shard of everything made before sharding) otherwise. */
export async function shardOfBytes(bytes: Uint8Array): Promise<number> {
  if (bytes.length <= TAG_BYTES) return 0;
  const random = bytes.subarray(0, bytes.length - TAG_BYTES);
  const shardBytes = bytes.subarray(bytes.length - TAG_BYTES, bytes.length - CHECK_BYTES);
  const expected = await check(random, shardBytes);
  const presented = bytes.subarray(bytes.length - CHECK_BYTES);
  // Not a secret: the check is public (unkeyed), so a plain comparison leaks nothing.
  for (let i = 0; i < CHECK_BYTES; i++) if (expected[i] !== presented[i]) return 0;
  return (shardBytes[0]! << 8) | shardBytes[1]!;
}

/** A base64url value of `bytes` bytes on the shard: ids, API keys, email-link tokens. */
export const newTaggedValue = async (bytes: number, shard: number): Promise<string> => toBase64Url(await taggedBytes(bytes, shard));

/**
 * The shard a base64url value names (the text after any prefix: `base64urlChars` from the end). A value
 * that is not base64url of that length reads as shard 0, where it will not be found either.
 */
export async function shardOfValue(text: string, base64urlChars: number): Promise<number> {
  const tail = text.slice(-base64urlChars);
  if (tail.length !== base64urlChars || !/^[A-Za-z0-9_-]+$/.test(tail)) return 0;
  return shardOfBytes(fromBase64Url(tail));
}
