// Web Crypto primitives: random bytes, hashing, HMAC, constant-time comparison (AES-GCM sealing: sealed-secret.ts).
import { toHex, utf8 } from "./encoding";

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", utf8(text)));
}

/** HMAC-SHA256 of a text (as UTF-8) or of exact bytes, such as a webhook's raw body. */
export async function hmacSha256(
  key: Uint8Array<ArrayBuffer>,
  message: string | Uint8Array<ArrayBuffer>,
): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, typeof message === "string" ? utf8(message) : message));
}

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  // workerd provides crypto.subtle.timingSafeEqual; it needs equal lengths, so compare a digest-free
  // length check first (lengths of our secrets are public: fixed by their format).
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}

/**
 * An HMAC-SHA256 key for one purpose, derived from a secret with HKDF-SHA256 (RFC 5869; the purpose is
 * the `info`): one Worker secret serves several uses without any two sharing a key.
 */
export async function derivedHmacKey(secret: string, purpose: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", utf8(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8(purpose) },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  );
}

/** HMAC-SHA256 of a text under an imported key, in hex. */
export async function hmacHex(key: CryptoKey, text: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", key, utf8(text)));
}
