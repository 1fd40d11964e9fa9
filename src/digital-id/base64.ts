// Base64url and base64 text from a wallet's answer, read totally: text that is not in the alphabet, or
// whose length no encoding produces (4n + 1 characters), is DIGITAL_ID_INVALID naming the field, never
// the exception the decoder would throw (which the route would answer as a 500, uncounted).
import { fromBase64, fromBase64Url } from "../lib/encoding";
import { invalid } from "./failures";

/** Unpadded base64url, as JOSE and the Digital Credentials API carry bytes (RFC 7515 §2). */
export function readBase64Url(text: string, what: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw invalid(`${what} is not base64url.`);
  return fromBase64Url(text);
}

/** Standard base64, padded or not, as an `x5c` certificate is (RFC 7515 §4.1.6). */
export function readBase64(text: string, what: string): Uint8Array<ArrayBuffer> {
  const body = text.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/]+$/.test(body) || body.length % 4 === 1 || (body !== text && text.length % 4 !== 0))
    throw invalid(`${what} is not base64.`);
  return fromBase64(text);
}
