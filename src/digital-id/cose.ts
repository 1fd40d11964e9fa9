// COSE (RFC 9052/9053) as mdocs use it: COSE_Sign1 for the issuer's MSO signature and the device
// signature (detached payload), and COSE_Key for the device key. ECDSA on P-256/384/521 only (ISO/IEC
// 18013-5 §9.1.5); the algorithm comes from the protected header, so it is covered by the signature.
import { Tagged, encodeCbor, type Cbor } from "./cbor";
import { asArray, asBytes, asInteger, asMap, parse, type CborMap } from "./cbor-read";
import { curveOf, importEcJwk, verifyRaw, type Curve, type Hash } from "./ecdsa";
import { invalid } from "./failures";
import { toBase64Url } from "../lib/encoding";

/** ES256/384/512 and their fully-specified names ESP256/384/512 (RFC 9864), which newer wallets send. */
const ALGORITHMS: Record<number, { hash: Hash; curve: Curve }> = {
  [-7]: { hash: "SHA-256", curve: "P-256" },
  [-35]: { hash: "SHA-384", curve: "P-384" },
  [-36]: { hash: "SHA-512", curve: "P-521" },
  [-9]: { hash: "SHA-256", curve: "P-256" },
  [-51]: { hash: "SHA-384", curve: "P-384" },
  [-52]: { hash: "SHA-512", curve: "P-521" },
};
const COSE_CURVES: Record<number, Curve> = { 1: "P-256", 2: "P-384", 3: "P-521" };
const HEADER_ALG = 1;
const HEADER_CRIT = 2;
const HEADER_X5CHAIN = 33;
/** The header labels this service acts on: a `crit` naming any other is refused (RFC 9052 §3.1). */
const UNDERSTOOD_HEADERS: ReadonlySet<unknown> = new Set([HEADER_ALG, HEADER_X5CHAIN]);

export type Sign1 = {
  protectedBytes: Uint8Array<ArrayBuffer>;
  protectedHeader: CborMap;
  unprotectedHeader: CborMap;
  payload: Uint8Array<ArrayBuffer> | null;
  signature: Uint8Array<ArrayBuffer>;
  algorithm: { hash: Hash; curve: Curve };
};

export function readSign1(value: Cbor | undefined, what: string): Sign1 {
  const parts = asArray(value instanceof Tagged && value.tag === 18 ? value.value : value, what);
  if (parts.length !== 4) throw invalid(`${what} is not a COSE_Sign1.`);
  const protectedBytes = asBytes(parts[0], `${what} protected header`);
  const protectedHeader =
    protectedBytes.length === 0 ? new Map() : asMap(parse(protectedBytes, `${what} protected header`), `${what} protected header`);
  const algorithm = ALGORITHMS[asInteger(protectedHeader.get(HEADER_ALG), `${what} algorithm`)];
  if (!algorithm) throw invalid(`${what} uses an algorithm this service does not accept.`);
  const unprotectedHeader = asMap(parts[1], `${what} unprotected header`);
  checkCritical(protectedHeader, unprotectedHeader, what);
  return {
    protectedBytes,
    protectedHeader,
    unprotectedHeader,
    payload: parts[2] === null ? null : asBytes(parts[2], `${what} payload`),
    signature: asBytes(parts[3], `${what} signature`),
    algorithm,
  };
}

/**
 * RFC 9052 §3.1: `crit` lists the headers a recipient must understand or refuse the message; it belongs
 * in the protected header (an unprotected one could be stripped), non-empty, naming only headers this
 * service acts on.
 */
function checkCritical(protectedHeader: CborMap, unprotectedHeader: CborMap, what: string): void {
  if (unprotectedHeader.has(HEADER_CRIT)) throw invalid(`${what} names critical headers outside its protected header (crit).`);
  if (!protectedHeader.has(HEADER_CRIT)) return;
  const critical = protectedHeader.get(HEADER_CRIT);
  if (!Array.isArray(critical) || critical.length === 0 || !critical.every((label) => UNDERSTOOD_HEADERS.has(label))) {
    throw invalid(`${what} marks a header critical that this service does not understand (crit).`);
  }
}

/** x5chain (RFC 9360): one certificate as a byte string, or several as an array, signer first. */
export function x5chain(sign1: Sign1, what: string): Uint8Array<ArrayBuffer>[] {
  const value = sign1.protectedHeader.get(HEADER_X5CHAIN) ?? sign1.unprotectedHeader.get(HEADER_X5CHAIN);
  if (value instanceof Uint8Array) return [value as Uint8Array<ArrayBuffer>];
  if (Array.isArray(value) && value.length > 0) return value.map((certificate) => asBytes(certificate, `${what} x5chain`));
  throw invalid(`${what} carries no certificate (x5chain).`);
}

/**
 * Verifies a COSE_Sign1 that carries its own payload (the issuer's MSO signature). A nil payload is
 * refused: there is nothing the signer vouched for.
 */
export async function verifyAttachedSign1(sign1: Sign1, key: CryptoKey): Promise<boolean> {
  if (!sign1.payload) return false;
  return verifySigStructure(sign1, key, sign1.payload);
}

/**
 * Verifies a COSE_Sign1 over content the service computes itself (the device signature over this
 * request's DeviceAuthenticationBytes). Its payload must be nil (ISO/IEC 18013-5 9.1.3.4: detached): a
 * signature whose payload slot carries bytes is refused (DIGITAL_ID_INVALID) even when they equal
 * `expectedPayload`, so that a signature made for another request is never checked over bytes the
 * answer itself supplies.
 */
export async function verifyDetachedSign1(sign1: Sign1, key: CryptoKey, expectedPayload: Uint8Array, what: string): Promise<boolean> {
  if (sign1.payload !== null)
    throw invalid(`${what}'s payload must be detached (nil): it is computed from this request, never taken from the answer.`);
  return verifySigStructure(sign1, key, expectedPayload);
}

async function verifySigStructure(sign1: Sign1, key: CryptoKey, payload: Uint8Array): Promise<boolean> {
  if (curveOf(key) !== sign1.algorithm.curve) return false;
  const toBeSigned = encodeCbor(["Signature1", sign1.protectedBytes, new Uint8Array(0), payload]);
  return verifyRaw(key, sign1.algorithm.hash, sign1.signature, toBeSigned);
}

/** An EC2 COSE_Key (the MSO's deviceKey) as a Web Crypto verification key. */
export async function importCoseKey(value: Cbor | undefined, what: string): Promise<CryptoKey> {
  const key = asMap(value, what);
  const curve = COSE_CURVES[asInteger(key.get(-1), `${what} curve`)];
  if (asInteger(key.get(1), `${what} type`) !== 2 || !curve) throw invalid(`${what} is not an EC key on an accepted curve.`);
  try {
    return await importEcJwk({
      crv: curve,
      x: toBase64Url(asBytes(key.get(-2), `${what} x`)),
      y: toBase64Url(asBytes(key.get(-3), `${what} y`)),
    });
  } catch {
    throw invalid(`${what} is not a valid public key.`);
  }
}
