// Verifiable receipts (CONTRACT §12): a compact JWS (EdDSA over Ed25519, Web Crypto) over what a
// resolved session decided, for whom it decided (the merchant account) and nothing about the person.
// Anyone verifies one against GET /.well-known/jwks.json; the key id (`kid`) picks the key, so a
// rotated-out key stays published (RECEIPT_SIGNING_KEY_PREVIOUS) while its receipts matter.
import { type Bindings, misconfigured } from "../config/settings";
import { receiptKeyProblem } from "../config/receipt-key";
import { toBase64Url, utf8 } from "../lib/encoding";

export type ReceiptClaims = {
  receipt_id: string;
  session_id: string;
  merchant_id: string;
  age_required: number;
  outcome: "APPROVED" | "DENIED";
  /** null for a decline from the first screen: no identity was checked (as in the polled session). */
  assurance: "KYC_VERIFIED" | null;
  holder_binding: "PASSWORD" | "PASSKEY" | null;
  resolved_at: string;
  livemode: boolean;
  iat: number;
  iss: string;
};

/** A public key as the JWKS publishes it. */
export type PublicJwk = { kty: "OKP"; crv: "Ed25519"; x: string; kid: string; alg: "EdDSA"; use: "sig" };
type PrivateJwk = { kty: "OKP"; crv: "Ed25519"; x: string; d: string; kid: string };

function parsedKey(env: Bindings, name: "RECEIPT_SIGNING_KEY" | "RECEIPT_SIGNING_KEY_PREVIOUS", needsPrivate: boolean): PrivateJwk | null {
  const value = env[name];
  if (!value) return null;
  const problem = receiptKeyProblem(value, needsPrivate);
  if (problem) throw misconfigured([{ setting: name, problem }]);
  return JSON.parse(value) as PrivateJwk;
}

const publicOf = (jwk: PrivateJwk): PublicJwk => ({ kty: "OKP", crv: "Ed25519", x: jwk.x, kid: jwk.kid, alg: "EdDSA", use: "sig" });

/** The published key set: the current signing key, then the previous one during a rotation. */
export function receiptJwks(env: Bindings): { keys: PublicJwk[] } {
  const current = parsedKey(env, "RECEIPT_SIGNING_KEY", true);
  if (!current) throw misconfigured([{ setting: "RECEIPT_SIGNING_KEY", problem: "is missing" }]);
  const previous = parsedKey(env, "RECEIPT_SIGNING_KEY_PREVIOUS", false);
  return { keys: previous && previous.kid !== current.kid ? [publicOf(current), publicOf(previous)] : [publicOf(current)] };
}

// Imported once per isolate and key text: signing happens once per resolved session.
const imported = new Map<string, Promise<CryptoKey>>();

/** Signs the claims with RECEIPT_SIGNING_KEY: `header.payload.signature`, header {alg: EdDSA, kid, typ}. */
export async function signReceipt(env: Bindings, claims: ReceiptClaims): Promise<string> {
  const jwk = parsedKey(env, "RECEIPT_SIGNING_KEY", true);
  if (!jwk) throw misconfigured([{ setting: "RECEIPT_SIGNING_KEY", problem: "is missing" }]);
  const cacheKey = `${jwk.kid}.${jwk.x}`;
  let key = imported.get(cacheKey);
  if (!key) {
    key = crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x, d: jwk.d }, { name: "Ed25519" }, false, ["sign"]) as Promise<CryptoKey>;
    imported.set(cacheKey, key);
    key.catch(() => imported.delete(cacheKey));
  }
  const header = toBase64Url(utf8(JSON.stringify({ alg: "EdDSA", kid: jwk.kid, typ: "age-receipt+jwt" })));
  const signingInput = `${header}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, await key, utf8(signingInput));
  return `${signingInput}.${toBase64Url(signature)}`;
}
