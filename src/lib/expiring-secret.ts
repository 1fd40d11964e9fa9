// A single-use secret that carries its own expiry, so that the row stored for it need keep no time finer
// than the UTC day it ends (docs/double-blind.md, docs/attestations.md): a row made by an account's
// request with a millisecond expiry would name the moment of that request, which logs join to the account.
// The secret: 26 random bytes and its expiry (seconds since the epoch, 6 bytes big-endian), base64url.
// Only a keyed or plain hash of the whole secret is stored, so an expiry read back from a secret whose
// hash matches a row is the one issued: changing it changes the hash.
import { fromBase64Url, toBase64Url } from "./encoding";

const RANDOM_BYTES = 26;
const EXPIRY_BYTES = 6;

/** A fresh secret that expires at `expiresAtMs`, rounded down to the second: never later than asked. */
export function newExpiringSecret(expiresAtMs: number): string {
  const bytes = new Uint8Array(RANDOM_BYTES + EXPIRY_BYTES);
  crypto.getRandomValues(bytes.subarray(0, RANDOM_BYTES));
  for (let i = 0, rest = Math.floor(expiresAtMs / 1000); i < EXPIRY_BYTES; i++, rest = Math.floor(rest / 256))
    bytes[bytes.length - 1 - i] = rest % 256;
  return toBase64Url(bytes);
}

/** The expiry a secret carries, in milliseconds; 0 (long expired) for one of another shape. */
export function expiryOfSecret(secret: string): number {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(secret);
  } catch {
    return 0;
  }
  if (bytes.length !== RANDOM_BYTES + EXPIRY_BYTES) return 0;
  let seconds = 0;
  for (const byte of bytes.subarray(RANDOM_BYTES)) seconds = seconds * 256 + byte;
  return seconds * 1000;
}
