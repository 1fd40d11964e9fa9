// Byte/text conversions used by the crypto helpers and ids.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text) as Uint8Array<ArrayBuffer>;
export const fromUtf8 = (bytes: ArrayBuffer | Uint8Array): string => decoder.decode(bytes);

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const toBase64Url = (bytes: ArrayBuffer | Uint8Array): string =>
  toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Base64url keeping its `=` padding, as Privacy Pass headers and directories require (RFC 9577 §2.1). */
export const toBase64UrlPadded = (bytes: ArrayBuffer | Uint8Array): string => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_");

const BASE64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/** Each base64url character's 6 bits by char code; -1 for any other character. */
const BASE64URL_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) BASE64URL_VALUE[BASE64URL_ALPHABET.charCodeAt(i)] = i;

/**
 * Bytes of a base64url text. Also takes standard base64 characters and `=` padding (through atob, whose
 * rules then apply). Plain unpadded base64url, what every id, key and token is, is decoded by table:
 * it runs on every merchant request (the key's shard tag), where the string rewriting and atob showed in
 * the profile (docs/performance.md).
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const decoded = decodeBase64Url(text);
  if (decoded) return decoded;
  const padded = text.replace(/-/g, "+").replace(/_/g, "/");
  return fromBase64(padded + "=".repeat((4 - (padded.length % 4)) % 4));
}

/** Plain unpadded base64url by table, or undefined for any other text (left to atob, which also throws on a length of 4n + 1). */
function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1) return undefined;
  const bytes = new Uint8Array((text.length * 3) >> 2);
  let bits = 0;
  let held = 0;
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? BASE64URL_VALUE[code]! : -1;
    if (value < 0) return undefined;
    bits = (bits << 6) | value;
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes[at++] = (bits >> held) & 0xff;
    }
    // Only the bits not yet written are kept, so the accumulator never grows past 14 bits.
    bits &= (1 << held) - 1;
  }
  return bytes;
}

/** Two lowercase hex digits per byte value: a SHA-256 in hex is on every merchant request (the key's lookup). */
const HEX_OF_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let hex = "";
  for (let i = 0; i < view.length; i++) hex += HEX_OF_BYTE[view[i]!]!;
  return hex;
}

/** Whether two byte strings are equal (public values such as keys and names: not constant-time). */
export const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((byte, i) => byte === b[i]);
