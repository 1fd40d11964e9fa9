// The shape a receipt signing key setting must have (RECEIPT_SIGNING_KEY, RECEIPT_SIGNING_KEY_PREVIOUS):
// checked where the key is read (src/session/receipts.ts) and by the fail-closed check of a deployment.

/** The reason a setting's value is not a usable Ed25519 JWK with a key id, or null. */
export function receiptKeyProblem(value: string, needsPrivate: boolean): string | null {
  let jwk: Record<string, unknown>;
  try {
    jwk = JSON.parse(value) as Record<string, unknown>;
  } catch {
    return "is not a JSON Web Key";
  }
  if (jwk === null || typeof jwk !== "object" || jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.x !== "string") {
    return "must be an Ed25519 JSON Web Key (kty OKP, crv Ed25519)";
  }
  if (typeof jwk.kid !== "string" || !/^[A-Za-z0-9._-]{1,64}$/.test(jwk.kid)) return "must carry a kid (1-64 of A-Z a-z 0-9 . _ -)";
  if (needsPrivate && typeof jwk.d !== "string") return "must be the private key (with d)";
  return null;
}

/** A receipt key as its setting holds it: the public half, and the private `d` for the signing key. */
export type ReceiptJwk = { kty: "OKP"; crv: "Ed25519"; x: string; d?: string; kid: string };

/** The setting, parsed once (src/config/settings.ts): its key, or the rule it breaks, or neither when unset. */
export type ReceiptKeySetting = { key?: ReceiptJwk; problem?: string };

export function parseReceiptKey(value: string | undefined, needsPrivate: boolean): ReceiptKeySetting {
  if (value === undefined) return {};
  const problem = receiptKeyProblem(value, needsPrivate);
  return problem ? { problem } : { key: JSON.parse(value) as ReceiptJwk };
}
