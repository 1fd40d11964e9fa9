// HPKE (RFC 9180) open, in the one suite ISO/IEC TS 18013-7 Annex C names for the wallet's response:
// base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, one message (sequence 0). Written on
// Web Crypto rather than @hpke/core, which costs the Worker 31 KB minified (9 KiB gzip) for all suites
// and roles (docs/digital-id.md, "Libraries and their cost"): RFC 9180 Appendix A.3.1 is its known
// answer, and the test wallet seals with @hpke/core, so each side checks the other.
import { fromBase64Url, utf8 } from "../lib/encoding";
import { openAesGcm } from "./aes-gcm";

const KEM_SUITE = Uint8Array.of(...utf8("KEM"), 0x00, 0x10);
const HPKE_SUITE = Uint8Array.of(...utf8("HPKE"), 0x00, 0x10, 0x00, 0x01, 0x00, 0x01);
const VERSION = utf8("HPKE-v1");

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function hmac(key: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    key.length === 0 ? new Uint8Array(32) : concat(key),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, concat(message)));
}

/** HKDF-Extract with SHA-256 (RFC 5869 §2.2): an empty salt is HashLen zero bytes. */
export const hkdfExtract = (salt: Uint8Array, ikm: Uint8Array) => hmac(salt, ikm);

/** HKDF-Expand with SHA-256 (RFC 5869 §2.3) for one block: HPKE never asks more than 32 bytes here. */
export async function hkdfExpand(prk: Uint8Array, info: Uint8Array, length: number): Promise<Uint8Array> {
  if (length > 32) throw new RangeError("HKDF output longer than one SHA-256 block");
  return (await hmac(prk, concat(info, Uint8Array.of(1)))).slice(0, length);
}

/** RFC 9180 §4: LabeledExtract and LabeledExpand over HKDF-SHA256. */
const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  hkdfExtract(salt, concat(VERSION, suite, utf8(label), ikm));
const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  hkdfExpand(prk, concat(Uint8Array.of(0, length), VERSION, suite, utf8(label), info), length);

/** PKCS #8 for a bare P-256 scalar, so that Web Crypto computes its public key. */
const pkcs8FromScalar = (d: Uint8Array) =>
  concat(
    Uint8Array.of(
      0x30,
      0x41,
      0x02,
      0x01,
      0x00,
      0x30,
      0x13,
      0x06,
      0x07,
      0x2a,
      0x86,
      0x48,
      0xce,
      0x3d,
      0x02,
      0x01,
      0x06,
      0x08,
      0x2a,
      0x86,
      0x48,
      0xce,
      0x3d,
      0x03,
      0x01,
      0x07,
      0x04,
      0x27,
      0x30,
      0x25,
      0x02,
      0x01,
      0x01,
      0x04,
      0x20,
    ),
    d,
  );

export async function recipientKey(
  recipient: JsonWebKey | Uint8Array<ArrayBuffer>,
): Promise<{ privateKey: CryptoKey; publicKey: Uint8Array }> {
  const algorithm = { name: "ECDH", namedCurve: "P-256" };
  let jwk = recipient as JsonWebKey;
  if (recipient instanceof Uint8Array) {
    const imported = await crypto.subtle.importKey("pkcs8", pkcs8FromScalar(recipient), algorithm, true, ["deriveBits"]);
    jwk = (await crypto.subtle.exportKey("jwk", imported)) as JsonWebKey;
  }
  const privateKey = await crypto.subtle.importKey("jwk", { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, d: jwk.d }, algorithm, false, [
    "deriveBits",
  ]);
  return { privateKey, publicKey: concat(Uint8Array.of(4), fromBase64Url(jwk.x!), fromBase64Url(jwk.y!)) };
}

/** DH(sk, pk) of DHKEM(P-256) (RFC 9180 §7.1.1): the x-coordinate of sk·pk, for an uncompressed point. */
export async function diffieHellmanP256(privateKey: CryptoKey, publicPoint: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const ephemeral = await crypto.subtle.importKey("raw", publicPoint, { name: "ECDH", namedCurve: "P-256" }, false, []);
  return new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "ECDH", public: ephemeral } as unknown as Parameters<typeof crypto.subtle.deriveBits>[0],
      privateKey,
      256,
    ),
  );
}

/** Opens one sealed message for the recipient's private key (a P-256 JWK with `d`, or the raw scalar). */
export async function hpkeOpen(
  recipient: JsonWebKey | Uint8Array<ArrayBuffer>,
  enc: Uint8Array<ArrayBuffer>,
  ciphertext: Uint8Array<ArrayBuffer>,
  info: Uint8Array<ArrayBuffer>,
  aad: Uint8Array<ArrayBuffer> = new Uint8Array(0),
): Promise<Uint8Array<ArrayBuffer>> {
  const { privateKey, publicKey } = await recipientKey(recipient);
  // DHKEM Decap (§4.1): the shared secret from DH(skR, pkE) and the KEM context enc || pkR.
  const dh = await diffieHellmanP256(privateKey, enc);
  const eaePrk = await labeledExtract(KEM_SUITE, new Uint8Array(0), "eae_prk", dh);
  const sharedSecret = await labeledExpand(KEM_SUITE, eaePrk, "shared_secret", concat(enc, publicKey), 32);
  // Key schedule (§5.1), base mode: no PSK.
  const pskIdHash = await labeledExtract(HPKE_SUITE, new Uint8Array(0), "psk_id_hash", new Uint8Array(0));
  const infoHash = await labeledExtract(HPKE_SUITE, new Uint8Array(0), "info_hash", info);
  const context = concat(Uint8Array.of(0), pskIdHash, infoHash);
  const secret = await labeledExtract(HPKE_SUITE, sharedSecret, "secret", new Uint8Array(0));
  const key = await labeledExpand(HPKE_SUITE, secret, "key", context, 16);
  const baseNonce = await labeledExpand(HPKE_SUITE, secret, "base_nonce", context, 12);
  // Sequence 0: the nonce is the base nonce itself.
  return openAesGcm(key, concat(baseNonce), ciphertext, aad);
}
