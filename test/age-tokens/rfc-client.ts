// A Privacy Pass client for token type 2 written from the RFCs, apart from the code under test (it
// shares no function with src/domain/age-tokens): it reads n and e out of the directory's RSASSA-PSS
// SPKI, encodes with EMSA-PSS (RFC 8017 §9.1.1, SHA-384, 48-byte salt), blinds and finalizes as
// RFC 9474 §4.2 and §4.4 say, and builds the TokenRequest and Token of RFC 9578 §6.1-6.3. The known
// answers in known-answers.test.ts check it against the RFCs' own vectors.

export const hex = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(text.match(/../g)!.map((b) => parseInt(b, 16)));
export const toHexString = (bytes: Uint8Array | ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
export const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const unb64url = (text: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

const os2ip = (bytes: Uint8Array): bigint => BigInt(`0x${toHexString(bytes) || "0"}`);
function i2osp(value: bigint, length: number): Uint8Array<ArrayBuffer> {
  const text = value.toString(16).padStart(length * 2, "0");
  if (text.length > length * 2) throw new Error("integer too large");
  return hex(text);
}
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
  return result;
}
function modInverse(value: bigint, modulus: bigint): bigint {
  let [a, b, x0, x1] = [value % modulus, modulus, 1n, 0n];
  while (b !== 0n) {
    const q = a / b;
    [a, b, x0, x1] = [b, a - q * b, x1, x0 - q * x1];
  }
  if (a !== 1n) throw new Error("not invertible");
  return ((x0 % modulus) + modulus) % modulus;
}
const concat = (...parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) out.set(part, (at += part.length) - part.length);
  return out;
};
const digest = async (name: "SHA-256" | "SHA-384", data: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest(name, data));

/** n and e from a DER SubjectPublicKeyInfo (any AlgorithmIdentifier): SEQ { alg SEQ, BIT STRING { SEQ { INTEGER n, INTEGER e } } }. */
export function rsaPublicKeyOf(spki: Uint8Array): { n: bigint; e: bigint } {
  let at = 0;
  const header = () => {
    const tag = spki[at]!;
    let length = spki[at + 1]!;
    at += 2;
    if (length & 0x80) {
      const octets = length & 0x7f;
      length = 0;
      for (let i = 0; i < octets; i++) length = length * 256 + spki[at++]!;
    }
    return { tag, length };
  };
  header(); // SubjectPublicKeyInfo
  const algorithm = header(); // AlgorithmIdentifier, skipped
  at += algorithm.length;
  header(); // BIT STRING
  at += 1; // unused-bits octet
  header(); // RSAPublicKey
  const nHeader = header();
  const n = os2ip(spki.slice(at, (at += nHeader.length)));
  const eHeader = header();
  const e = os2ip(spki.slice(at, (at += eHeader.length)));
  return { n, e };
}

async function mgf1(seed: Uint8Array, length: number): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  for (let counter = 0; out.length * 48 < length; counter++) out.push(await digest("SHA-384", concat(seed, i2osp(BigInt(counter), 4))));
  return concat(...out).slice(0, length);
}

/** EMSA-PSS-ENCODE(msg, emBits) with SHA-384, MGF1-SHA-384 and the given 48-byte salt (RFC 8017 §9.1.1). */
export async function emsaPssEncode(msg: Uint8Array<ArrayBuffer>, emBits: number, salt: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const emLen = Math.ceil(emBits / 8);
  const mHash = await digest("SHA-384", msg);
  const h = await digest("SHA-384", concat(new Uint8Array(8), mHash, salt));
  const db = concat(new Uint8Array(emLen - salt.length - 48 - 2), new Uint8Array([1]), salt);
  const mask = await mgf1(h, emLen - 48 - 1);
  const maskedDb = db.map((byte, i) => byte ^ mask[i]!);
  maskedDb[0]! &= 0xff >> (8 * emLen - emBits);
  return concat(maskedDb, h, new Uint8Array([0xbc]));
}

/** RFC 9474 §4.2 Blind, with the salt and r given (tests) or random. */
export async function blind(key: { n: bigint; e: bigint }, msg: Uint8Array<ArrayBuffer>, fixed: { salt?: Uint8Array; r?: bigint } = {}) {
  const modBits = key.n.toString(2).length;
  const kLen = Math.ceil(modBits / 8);
  const encoded = await emsaPssEncode(msg, modBits - 1, fixed.salt ?? crypto.getRandomValues(new Uint8Array(48)));
  const m = os2ip(encoded);
  const r = fixed.r ?? (os2ip(crypto.getRandomValues(new Uint8Array(kLen))) % (key.n - 1n)) + 1n;
  const inv = modInverse(r, key.n);
  const blindedMsg = i2osp((m * modPow(r, key.e, key.n)) % key.n, kLen);
  return { encoded, blindedMsg, inv };
}

/** RFC 9474 §4.4 Finalize, verifying the signature with Web Crypto's RSA-PSS as the RFC says. */
export async function finalize(
  key: { n: bigint; e: bigint },
  msg: Uint8Array<ArrayBuffer>,
  blindSig: Uint8Array,
  inv: bigint,
): Promise<Uint8Array<ArrayBuffer>> {
  const kLen = Math.ceil(key.n.toString(2).length / 8);
  if (blindSig.length !== kLen) throw new Error("unexpected input size");
  const sig = i2osp((os2ip(blindSig) * inv) % key.n, kLen);
  const b64 = (v: bigint) => b64url(i2osp(v, Math.ceil(v.toString(16).length / 2)));
  const publicKey = await crypto.subtle.importKey(
    "jwk",
    { kty: "RSA", n: b64(key.n), e: b64(key.e) },
    { name: "RSA-PSS", hash: "SHA-384" },
    false,
    ["verify"],
  );
  if (!(await crypto.subtle.verify({ name: "RSA-PSS", saltLength: 48 }, publicKey, sig, msg))) throw new Error("invalid signature");
  return sig;
}

/** RFC 9578 §6.1: a TokenRequest for a challenge and a directory token key, and the finalization of its response into a Token. */
export async function createTokenRequest(
  challenge: Uint8Array<ArrayBuffer>,
  tokenKey: Uint8Array<ArrayBuffer>,
  fixed: { nonce?: Uint8Array; salt?: Uint8Array; r?: bigint } = {},
) {
  const key = rsaPublicKeyOf(tokenKey);
  const tokenKeyId = await digest("SHA-256", tokenKey);
  const nonce = fixed.nonce ?? crypto.getRandomValues(new Uint8Array(32));
  const tokenInput = concat(new Uint8Array([0, 2]), nonce, await digest("SHA-256", challenge), tokenKeyId);
  const { blindedMsg, inv } = await blind(key, tokenInput, fixed);
  const tokenRequest = concat(new Uint8Array([0, 2, tokenKeyId[31]!]), blindedMsg);
  return {
    tokenRequest,
    finalize: async (tokenResponse: Uint8Array) => concat(tokenInput, await finalize(key, tokenInput, tokenResponse, inv)),
  };
}

/** RFC 9577 §2.1.1 TokenChallenge, type 2. */
export function tokenChallenge(issuerName: string, redemptionContext: Uint8Array, originInfo: string): Uint8Array<ArrayBuffer> {
  const issuer = new TextEncoder().encode(issuerName);
  const origin = new TextEncoder().encode(originInfo);
  const u16 = (n: number) => new Uint8Array([n >> 8, n & 0xff]);
  return concat(
    u16(2),
    u16(issuer.length),
    issuer,
    new Uint8Array([redemptionContext.length]),
    redemptionContext,
    u16(origin.length),
    origin,
  );
}
