// The wallet's proofs of possession in a credential request (OpenID4VCI 1.0 §8.2.1.1, Appendix F.1), one
// per attestation asked for: a compact JWS with header typ `openid4vci-proof+jwt`, alg ES256 and the
// device key as `jwk`, a payload naming this credential issuer as `aud`, an `iat` within five minutes of
// now and a `nonce` from POST /nonce, signed by that very key. Every proof is checked before anything is
// issued; one bad proof refuses the request. Which c_nonces are fresh is the caller's question
// (grants.ts): this returns the nonces to spend.
import { fromBase64Url, fromUtf8, utf8 } from "../../lib/encoding";
import { oauthError } from "./oauth-error";
import type { DeviceJwk } from "./proof-of-age-mdoc";

export const PROOF_TYPE = "openid4vci-proof+jwt";
/** How far a proof's `iat` may be from now, either way (clock skew and the wallet's time to build a batch). */
export const PROOF_IAT_WINDOW_SECONDS = 300;
/** Larger than any honest proof (a P-256 jwk header and a short payload): the work per proof is bounded. */
const MAX_PROOF_LENGTH = 4096;
/**
 * A P-256 coordinate as RFC 7518 §6.2.1.2 has it: exactly 32 bytes, unpadded base64url. WebCrypto also
 * imports longer ones with leading zero bytes, which the MSO would then carry as a device key that no
 * strict verifier reads.
 */
const P256_COORDINATE = /^[A-Za-z0-9_-]{43}$/;

export type CheckedProof = { deviceKey: DeviceJwk; nonce: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function decodeSegment(segment: string): Record<string, unknown> {
  const value: unknown = JSON.parse(fromUtf8(fromBase64Url(segment)));
  if (!isRecord(value)) throw new Error("not an object");
  return value;
}

const refuse = (index: number, why: string) => oauthError("invalid_proof", `Proof ${index + 1}: ${why}`);

/** Checks one proof (its position for the message); throws invalid_proof naming what is wrong. */
export async function checkProof(jwt: unknown, index: number, credentialIssuer: string, now: number): Promise<CheckedProof> {
  if (typeof jwt !== "string" || jwt.length > MAX_PROOF_LENGTH) throw refuse(index, "is not a compact JWT.");
  const parts = jwt.split(".");
  if (parts.length !== 3) throw refuse(index, "is not a compact JWT.");
  let header: Record<string, unknown>;
  let payload: Record<string, unknown>;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    header = decodeSegment(parts[0]!);
    payload = decodeSegment(parts[1]!);
    signature = fromBase64Url(parts[2]!);
  } catch {
    throw refuse(index, "cannot be read.");
  }
  if (header.typ !== PROOF_TYPE) throw refuse(index, `typ must be ${PROOF_TYPE}.`);
  if (header.alg !== "ES256") throw refuse(index, "alg must be ES256.");
  // A key named another way (kid, x5c, a key attestation) is a key this service cannot hold the wallet to.
  if (header.kid !== undefined || header.x5c !== undefined || header.trust_chain !== undefined)
    throw refuse(index, "must carry its key as jwk only.");
  const jwk = header.jwk;
  if (
    !isRecord(jwk) ||
    jwk.kty !== "EC" ||
    jwk.crv !== "P-256" ||
    typeof jwk.x !== "string" ||
    typeof jwk.y !== "string" ||
    !P256_COORDINATE.test(jwk.x) ||
    !P256_COORDINATE.test(jwk.y) ||
    jwk.d !== undefined
  ) {
    throw refuse(index, "jwk must be a public P-256 key.");
  }
  if (payload.aud !== credentialIssuer) throw refuse(index, "aud must be this credential issuer.");
  if (typeof payload.iat !== "number" || !Number.isFinite(payload.iat) || Math.abs(payload.iat - now / 1000) > PROOF_IAT_WINDOW_SECONDS) {
    throw refuse(index, `iat must be within ${PROOF_IAT_WINDOW_SECONDS / 60} minutes of now.`);
  }
  if (typeof payload.nonce !== "string" || payload.nonce.length === 0)
    throw oauthError("invalid_nonce", `Proof ${index + 1}: nonce must be a c_nonce from the nonce endpoint.`);
  const deviceKey: DeviceJwk = { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y };
  let verified = false;
  try {
    const key = await crypto.subtle.importKey("jwk", deviceKey, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    verified =
      signature.length === 64 &&
      (await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, signature, utf8(`${parts[0]}.${parts[1]}`)));
  } catch {
    throw refuse(index, "jwk is not a P-256 key.");
  }
  if (!verified) throw refuse(index, "the signature does not verify with its jwk.");
  return { deviceKey, nonce: payload.nonce };
}

/** Checks every proof, in order; the first bad one refuses them all. */
export async function checkProofs(jwts: readonly unknown[], credentialIssuer: string, now: number): Promise<CheckedProof[]> {
  const checked: CheckedProof[] = [];
  for (const [index, jwt] of jwts.entries()) checked.push(await checkProof(jwt, index, credentialIssuer, now));
  return checked;
}
