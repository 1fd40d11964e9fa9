// Verifiable receipts (CONTRACT §12): a compact JWS (EdDSA over Ed25519, Web Crypto) over what a
// resolved session decided, for whom it decided (the merchant account) and nothing about the person.
// Anyone verifies one against GET /.well-known/jwks.json; the key id (`kid`) picks the key, so a
// rotated-out key stays published (RECEIPT_SIGNING_KEY_PREVIOUS) while its receipts matter.
import { misconfigured, type Settings } from "../config/settings";
import type { ReceiptJwk, ReceiptKeySetting } from "../config/receipt-key";
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
type SettingName = "RECEIPT_SIGNING_KEY" | "RECEIPT_SIGNING_KEY_PREVIOUS";

/** The parsed setting's key, or 503 MISCONFIGURED naming the rule its value breaks. */
function keyOf(setting: ReceiptKeySetting, name: SettingName): ReceiptJwk | null {
  if (setting.problem) throw misconfigured([{ setting: name, problem: setting.problem }]);
  return setting.key ?? null;
}

function signingKey(settings: Settings): ReceiptJwk {
  const key = keyOf(settings.receiptSigningKey, "RECEIPT_SIGNING_KEY");
  if (!key) throw misconfigured([{ setting: "RECEIPT_SIGNING_KEY", problem: "is missing" }]);
  return key;
}

const publicOf = (jwk: ReceiptJwk): PublicJwk => ({ kty: "OKP", crv: "Ed25519", x: jwk.x, kid: jwk.kid, alg: "EdDSA", use: "sig" });

/** The published key set: the current signing key, then the previous one during a rotation. */
export function receiptJwks(settings: Settings): { keys: PublicJwk[] } {
  const current = signingKey(settings);
  const previous = keyOf(settings.receiptSigningKeyPrevious, "RECEIPT_SIGNING_KEY_PREVIOUS");
  return { keys: previous && previous.kid !== current.kid ? [publicOf(current), publicOf(previous)] : [publicOf(current)] };
}

// Imported once per isolate and key text: signing happens once per resolved session.
const imported = new Map<string, Promise<CryptoKey>>();

/** Signs the claims with RECEIPT_SIGNING_KEY: `header.payload.signature`, header {alg: EdDSA, kid, typ}. */
export async function signReceipt(settings: Settings, claims: ReceiptClaims): Promise<string> {
  const jwk = signingKey(settings);
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
