// The Privacy Pass messages of token type 2 (blind RSA, 2048-bit) as bytes: the TokenChallenge
// (RFC 9577 §2.1.1), the TokenRequest (RFC 9578 §6.1) and the Token (RFC 9577 §2.2). Parsing checks
// sizes and the type only; what the bytes prove is checked by issuance.ts and redemption.ts.

export const TOKEN_TYPE_BLIND_RSA = 0x0002;
/** Bytes of the RSA-2048 modulus, so of a blinded message, a blind signature and an authenticator. */
const NK = 256;
const NID = 32;
const NONCE_BYTES = 32;
const DIGEST_BYTES = 32;
export const TOKEN_REQUEST_BYTES = 2 + 1 + NK;
/** The Token minus its authenticator: what the issuer's signature covers (RFC 9578 §6.4). */
const AUTHENTICATOR_INPUT_BYTES = 2 + NONCE_BYTES + DIGEST_BYTES + NID;
export const TOKEN_BYTES = AUTHENTICATOR_INPUT_BYTES + NK;

export type TokenChallengeFields = { issuerName: string; redemptionContext: Uint8Array; originInfo: string };

export function encodeTokenChallenge({ issuerName, redemptionContext, originInfo }: TokenChallengeFields): Uint8Array<ArrayBuffer> {
  const issuer = new TextEncoder().encode(issuerName);
  const origin = new TextEncoder().encode(originInfo);
  if (issuer.length < 1 || issuer.length > 0xffff || origin.length > 0xffff)
    throw new Error("TokenChallenge: issuer_name or origin_info out of range");
  if (redemptionContext.length !== 0 && redemptionContext.length !== 32)
    throw new Error("TokenChallenge: redemption_context is empty or 32 bytes");
  const u16 = (n: number) => [n >> 8, n & 0xff];
  return new Uint8Array([
    ...u16(TOKEN_TYPE_BLIND_RSA),
    ...u16(issuer.length),
    ...issuer,
    redemptionContext.length,
    ...redemptionContext,
    ...u16(origin.length),
    ...origin,
  ]);
}

export type TokenRequest = { truncatedTokenKeyId: number; blindedMsg: Uint8Array<ArrayBuffer> };

/** Throws an Error whose message says, for a person, what is wrong with the bytes. */
export function parseTokenRequest(bytes: Uint8Array<ArrayBuffer>): TokenRequest {
  if (bytes.length < 2 || new DataView(bytes.buffer, bytes.byteOffset).getUint16(0) !== TOKEN_TYPE_BLIND_RSA)
    throw new Error("not a TokenRequest of token type 2 (blind RSA)");
  if (bytes.length !== TOKEN_REQUEST_BYTES) throw new Error(`a TokenRequest of token type 2 is ${TOKEN_REQUEST_BYTES} bytes`);
  return { truncatedTokenKeyId: bytes[2]!, blindedMsg: bytes.slice(3) };
}

export type Token = {
  nonce: Uint8Array<ArrayBuffer>;
  challengeDigest: Uint8Array<ArrayBuffer>;
  tokenKeyId: Uint8Array<ArrayBuffer>;
  authenticatorInput: Uint8Array<ArrayBuffer>;
  authenticator: Uint8Array<ArrayBuffer>;
};

/** A Token of type 2, or null for anything else (another type, another length). */
export function parseToken(bytes: Uint8Array<ArrayBuffer>): Token | null {
  if (bytes.length !== TOKEN_BYTES || new DataView(bytes.buffer, bytes.byteOffset).getUint16(0) !== TOKEN_TYPE_BLIND_RSA) return null;
  let at = 2;
  const take = (length: number) => bytes.slice(at, (at += length));
  return {
    nonce: take(NONCE_BYTES),
    challengeDigest: take(DIGEST_BYTES),
    tokenKeyId: take(NID),
    authenticatorInput: bytes.slice(0, AUTHENTICATOR_INPUT_BYTES),
    authenticator: bytes.slice(AUTHENTICATOR_INPUT_BYTES),
  };
}
