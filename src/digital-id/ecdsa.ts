// ECDSA over Web Crypto for the three places a credential is signed: X.509 certificates (DER
// signatures), COSE_Sign1 and JWS (r||s signatures). Curves and hashes are the ones ISO/IEC 18013-5
// (§9.1.5) and the SD-JWT VC profiles allow: P-256, P-384 and P-521 with SHA-256/384/512.
import { children, expect, parseDer, UNIVERSAL } from "./der";

export type Curve = "P-256" | "P-384" | "P-521";
export type Hash = "SHA-256" | "SHA-384" | "SHA-512";

const COORDINATE_BYTES: Record<Curve, number> = { "P-256": 32, "P-384": 48, "P-521": 66 };

export const importSpki = (spki: Uint8Array<ArrayBuffer>, curve: Curve): Promise<CryptoKey> =>
  crypto.subtle.importKey("spki", spki, { name: "ECDSA", namedCurve: curve }, false, ["verify"]);

/** An EC public key as a JWK (COSE_Key and JWK both carry x and y). */
export const importEcJwk = (jwk: { crv: Curve; x: string; y: string }): Promise<CryptoKey> =>
  crypto.subtle.importKey("jwk", { kty: "EC", crv: jwk.crv, x: jwk.x, y: jwk.y }, { name: "ECDSA", namedCurve: jwk.crv }, false, [
    "verify",
  ]);

export const curveOf = (key: CryptoKey): Curve => (key.algorithm as { namedCurve?: string }).namedCurve as Curve;

export async function verifyRaw(
  key: CryptoKey,
  hash: Hash,
  signature: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (signature.length !== 2 * COORDINATE_BYTES[curveOf(key)]) return false;
  return crypto.subtle.verify({ name: "ECDSA", hash }, key, signature, data);
}

/**
 * A DER INTEGER's contents (X.690 §8.3: minimal, two's complement) as an unsigned value of `size`
 * bytes. r and s are positive: a leading 0x00 is allowed only before a byte with its high bit set, and a
 * negative or empty integer is refused, so each signature has one encoding.
 */
function fixedLength(integer: Uint8Array, size: number): Uint8Array {
  if (integer.length === 0 || (integer[0]! & 0x80) !== 0 || (integer.length > 1 && integer[0] === 0 && (integer[1]! & 0x80) === 0))
    throw new Error("ECDSA integer is not DER");
  const trimmed = integer[0] === 0 ? integer.subarray(1) : integer;
  if (trimmed.length > size) throw new Error("ECDSA integer too long");
  const out = new Uint8Array(size);
  out.set(trimmed, size - trimmed.length);
  return out;
}

/** X.509 carries ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }; Web Crypto wants r||s. */
export function derSignatureToRaw(der: Uint8Array<ArrayBuffer>, curve: Curve): Uint8Array<ArrayBuffer> {
  const integers = children(expect(parseDer(der), UNIVERSAL.SEQUENCE));
  if (integers.length !== 2) throw new Error("ECDSA signature is not two integers");
  const size = COORDINATE_BYTES[curve];
  const raw = new Uint8Array(2 * size);
  integers.forEach((integer, index) => {
    raw.set(fixedLength(expect(integer, UNIVERSAL.INTEGER).contents, size), index * size);
  });
  return raw;
}
