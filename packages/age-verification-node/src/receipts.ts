// Verifies a receipt (docs/receipts.md): a compact JWS, EdDSA (Ed25519) only, signed by the key whose
// `kid` the service publishes at /.well-known/jwks.json. Web Crypto does the signature check, so the
// library needs no JOSE dependency; it refuses every other algorithm and any unknown kid.
import { base64UrlToBytes, utf8 } from "./encoding.js";

export type ReceiptClaims = {
  receipt_id: string;
  session_id: string;
  merchant_id: string;
  age_required: number;
  outcome: "APPROVED" | "DENIED";
  assurance: string | null;
  holder_binding: string | null;
  denial_reason: string | null;
  resolved_at: string;
  livemode: boolean;
  iat: number;
  iss: string;
};

export type Jwk = { kty: string; crv?: string; x?: string; kid?: string; alg?: string; use?: string };
export type Jwks = { keys: Jwk[] };

export class ReceiptVerificationError extends Error {
  override name = "ReceiptVerificationError";
}

/** Fetches the service's published keys (cacheable for 5 minutes: keep the answer that long if you verify many). */
export async function fetchJwks(baseUrl: string, options: { fetch?: typeof fetch } = {}): Promise<Jwks> {
  const response = await (options.fetch ?? fetch)(`${baseUrl.replace(/\/$/, "")}/.well-known/jwks.json`);
  if (!response.ok) throw new ReceiptVerificationError(`JWKS: HTTP ${response.status}`);
  return (await response.json()) as Jwks;
}

/**
 * Checks a receipt's signature against `jwks` and returns its claims; throws ReceiptVerificationError when
 * it is malformed, not EdDSA, signed by an unpublished kid, or any byte of it changed. `issuer`, when given,
 * must equal the `iss` claim. Then check what you rely on: `livemode` (a test receipt's kid ends in
 * `.test`), `merchant_id`, `session_id`, `age_required`, `outcome`.
 */
export async function verifyReceipt(receipt: string, jwks: Jwks, options: { issuer?: string } = {}): Promise<ReceiptClaims> {
  const parts = receipt.split(".");
  if (parts.length !== 3) throw new ReceiptVerificationError("not a compact JWS");
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  const header = decodeJson(encodedHeader) as { alg?: unknown; kid?: unknown };
  if (header.alg !== "EdDSA") throw new ReceiptVerificationError("only EdDSA receipts are accepted");
  if (typeof header.kid !== "string") throw new ReceiptVerificationError("the receipt names no kid");
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (jwk?.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string")
    throw new ReceiptVerificationError(`no published Ed25519 key has kid ${header.kid}`);

  const key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, false, ["verify"]);
  const valid = await crypto.subtle.verify(
    { name: "Ed25519" },
    key,
    base64UrlToBytes(encodedSignature),
    utf8(`${encodedHeader}.${encodedPayload}`),
  );
  if (!valid) throw new ReceiptVerificationError("the signature does not match: the receipt was changed or not signed by this key");

  const claims = decodeJson(encodedPayload) as ReceiptClaims;
  if (options.issuer !== undefined && claims.iss !== options.issuer)
    throw new ReceiptVerificationError(`issuer ${claims.iss} is not ${options.issuer}`);
  return claims;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(base64UrlToBytes(part)));
  } catch {
    throw new ReceiptVerificationError("a receipt part is not base64url JSON");
  }
}
