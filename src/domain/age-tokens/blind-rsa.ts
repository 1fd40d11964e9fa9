// The issuer's half of RSABSSA-SHA384-PSS-Deterministic (RFC 9474): BlindSign, and the RSASSA-PSS
// verification of a finished token. The private-key operation is workerd's native "RSA-RAW" (BoringSSL,
// constant time, with CRT): @cloudflare/blindrsa-ts does its own in JavaScript big integers (sjcl),
// about 200 ms of CPU a signature against under 1 ms here, and not constant time (docs/double-blind.md).
// Native BigInt only redoes the public-key check of §4.3 step 3, on public values.

/** What BlindSign needs of a token key. */
export type BlindSigningKey = { signKey: CryptoKey; modulus: bigint; publicExponent: bigint };

/** RFC 9474 §4.3: salt length of the PSS encoding = 48, the SHA-384 output. */
const SALT_LENGTH = 48;

export const bytesToBigInt = (bytes: Uint8Array): bigint =>
  bytes.length === 0 ? 0n : BigInt(`0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`);

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let square = base % modulus;
  for (let rest = exponent; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = (result * square) % modulus;
    square = (square * square) % modulus;
  }
  return result;
}

/** Whether the key can sign the blinded message: its integer is below the modulus (RFC 8017 §5.2.1). */
export const inSigningRange = (key: BlindSigningKey, blindedMsg: Uint8Array): boolean => bytesToBigInt(blindedMsg) < key.modulus;

/** Thrown for a blinded message the key cannot sign (out of range); the caller answers a 4xx. */
export class BlindSignRefused extends Error {}

/** RFC 9474 §4.3 BlindSign: blind_sig = RSASP1(sk, blinded_msg), checked with RSAVP1 before it leaves. */
export async function blindSign(key: BlindSigningKey, blindedMsg: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const m = bytesToBigInt(blindedMsg);
  if (m >= key.modulus) throw new BlindSignRefused("message representative out of range");
  const signature = new Uint8Array(await crypto.subtle.sign({ name: "RSA-RAW" }, key.signKey, blindedMsg));
  // Step 3-4: a faulty signature could reveal the private key; never hand it out.
  if (modPow(bytesToBigInt(signature), key.publicExponent, key.modulus) !== m) throw new Error("blind signature failed its check");
  return signature;
}

/** RSASSA-PSS-VERIFY with SHA-384, MGF1-SHA-384 and a 48-byte salt (RFC 9578 §6.4). */
export const verifyPss = (verifyKey: CryptoKey, message: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>): Promise<boolean> =>
  crypto.subtle.verify({ name: "RSA-PSS", saltLength: SALT_LENGTH }, verifyKey, signature, message);
