// Verifiable receipts (docs/api-contract.md §Receipts): a compact JWS (EdDSA over Ed25519, Web Crypto) over what a
// resolved session decided, for whom it decided (the merchant account) and nothing about the person.
// Anyone verifies one against GET /.well-known/jwks.json; the key id (`kid`) picks the key, so a
// rotated-out key stays published (RECEIPT_SIGNING_KEY_PREVIOUS) while its receipts matter.
// A test session's receipt is signed by a key of its own (kid `<kid>.test`), derived from the signing key
// and published in the same key set: a receipt's kid says which it is, and a verifier that trusts only the
// live key ids (or checks `livemode`) cannot take a test receipt for a real one (docs/security-privacy.md).
import { misconfigured, type Settings } from "../config/settings";
import type { ReceiptJwk, ReceiptKeySetting } from "../config/receipt-key";
import type { Assurance, DenialReason, HolderBindingName } from "./assurance";
import { fromBase64Url, toBase64Url, utf8 } from "../lib/encoding";

export type ReceiptClaims = {
  receipt_id: string;
  session_id: string;
  merchant_id: string;
  age_required: number;
  outcome: "APPROVED" | "DENIED";
  /** null for a decline from the first screen: no identity was checked (as in the polled session). */
  assurance: Assurance | null;
  holder_binding: HolderBindingName | null;
  /** Why a DENIED session was denied (UNDER_AGE, DECLINED); null for an approval (docs/api-contract.md §Sessions). */
  denial_reason: DenialReason | null;
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

/** Ed25519's PKCS #8 wrapping of a 32-byte private key (RFC 8410): the derived test key is imported by it. */
const ED25519_PKCS8_PREFIX = Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20);

type SigningPair = { kid: string; x: string; key: CryptoKey };

/**
 * The test receipts' key: its private key is HKDF-SHA256 of the signing key's `d` (info
 * "age-verification/test-receipts/v1"), so it needs no setting of its own and changes with a rotation.
 */
async function deriveTestKey(live: ReceiptJwk): Promise<SigningPair> {
  const material = await crypto.subtle.importKey("raw", fromBase64Url(live.d!), "HKDF", false, ["deriveBits"]);
  const seed = new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: utf8("age-verification/test-receipts/v1") },
      material,
      256,
    ),
  );
  const pkcs8 = new Uint8Array(ED25519_PKCS8_PREFIX.length + seed.length);
  pkcs8.set(ED25519_PKCS8_PREFIX);
  pkcs8.set(seed, ED25519_PKCS8_PREFIX.length);
  const extractable = (await crypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"])) as CryptoKey;
  const { x, d } = (await crypto.subtle.exportKey("jwk", extractable)) as JsonWebKey;
  const key = (await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x, d }, { name: "Ed25519" }, false, [
    "sign",
  ])) as CryptoKey;
  return { kid: `${live.kid}.test`, x: x!, key };
}

const importLive = async (live: ReceiptJwk): Promise<SigningPair> => ({
  kid: live.kid,
  x: live.x,
  key: (await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: live.x, d: live.d }, { name: "Ed25519" }, false, [
    "sign",
  ])) as CryptoKey,
});

// Imported (and for test receipts derived) once per isolate and key: signing happens once per resolved session.
const pairs = new Map<string, Promise<SigningPair>>();

function signingPair(live: ReceiptJwk, livemode: boolean): Promise<SigningPair> {
  const cacheKey = `${livemode ? "live" : "test"}.${live.kid}.${live.x}`;
  let pair = pairs.get(cacheKey);
  if (!pair) {
    pair = livemode ? importLive(live) : deriveTestKey(live);
    pairs.set(cacheKey, pair);
    pair.catch(() => pairs.delete(cacheKey));
  }
  return pair;
}

/**
 * The key set GET /.well-known/jwks.json publishes: the live keys (receiptJwks), then the current test
 * receipts' key (kid `<kid>.test`).
 */
export async function publishedReceiptKeys(settings: Settings): Promise<{ keys: PublicJwk[] }> {
  const { kid, x } = await signingPair(signingKey(settings), false);
  return { keys: [...receiptJwks(settings).keys, { kty: "OKP", crv: "Ed25519", x, kid, alg: "EdDSA", use: "sig" }] };
}

/**
 * Signs the claims: `header.payload.signature`, header {alg: EdDSA, kid, typ}; with RECEIPT_SIGNING_KEY
 * for a live session, with its derived test key (kid `<kid>.test`) for a test session.
 */
export async function signReceipt(settings: Settings, claims: ReceiptClaims): Promise<string> {
  const { kid, key } = await signingPair(signingKey(settings), claims.livemode !== false);
  const header = toBase64Url(utf8(JSON.stringify({ alg: "EdDSA", kid, typ: "age-receipt+jwt" })));
  const signingInput = `${header}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, key, utf8(signingInput));
  return `${signingInput}.${toBase64Url(signature)}`;
}
