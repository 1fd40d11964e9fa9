// TEST ONLY. The test wallet's CBOR is cbor-x, a library independent of the service's own encoder, so
// that a mistake in one is not mirrored by the other (the known-answer tests pin both to published bytes).
import { Encoder, Tag } from "cbor-x";

const codec = new Encoder({ useRecords: false, mapsAsObjects: false, tagUint8Array: false, variableMapSize: true });

export const encode = (value: unknown): Uint8Array<ArrayBuffer> => new Uint8Array(codec.encode(value));
export const decode = (bytes: Uint8Array): unknown => codec.decode(bytes);
export const tag24 = (value: unknown) => new Tag(encode(value), 24);
export const tdate = (date: Date) => new Tag(date.toISOString().replace(/\.\d{3}Z$/, "Z"), 0);
export { Tag };

export const base64url = (bytes: Uint8Array): string => {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
export const fromBase64url = (text: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};
export const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
