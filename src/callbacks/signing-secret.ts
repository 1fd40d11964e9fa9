// A key's signing secrets (docs/api-contract.md §Keys, Standard Webhooks): their format, and the slots they are sealed
// in. The current secret signs every callback; during a rotation the previous one signs too, until its
// grace ends (src/domain/merchant-callbacks/secret-rotation.ts).
import { randomBytes } from "../lib/crypto";
import { toBase64 } from "../lib/encoding";

/** Standard Webhooks' prefix: the secret is `whsec_` + base64 of its key bytes. */
export const SIGNING_SECRET_PREFIX = "whsec_";

export const newSigningSecret = () => SIGNING_SECRET_PREFIX + toBase64(randomBytes(32));

/** The previous secret signs until its expiry; `now` decides, so a listing never shows an ended grace. */
export const previousSecretLive = (row: { previousSecretExpiresAt: string | null }, now: string) =>
  row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;

/**
 * The additional-data row of the previous signing secret: bound to its key AND its slot, so the current
 * and previous ciphertexts of one row cannot be swapped (src/lib/sealed-secret.ts).
 */
export const previousSecretRowId = (keyId: string) => `${keyId}:previous`;
