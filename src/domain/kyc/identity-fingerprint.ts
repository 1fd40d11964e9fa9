// One identity document verifies one live account (docs/limits.md). The document is kept only as a keyed,
// non-reversible fingerprint: HMAC-SHA256 under IDENTITY_FINGERPRINT_KEY of the issuing country and the
// number (upper-cased, spaces and dashes dropped, so spellings of one number agree). Without the key a
// database reader cannot test a guessed number; the number itself is never stored.
import { secret, type Settings } from "../../config/settings";
import { hmacSha256 } from "../../lib/crypto";
import { toHex } from "../../lib/encoding";
import type { IdentityDocument } from "../../context/identity-provider";

const encoder = new TextEncoder();

export async function identityFingerprint(settings: Settings, document: IdentityDocument): Promise<string> {
  const key = encoder.encode(secret(settings, "IDENTITY_FINGERPRINT_KEY")) as Uint8Array<ArrayBuffer>;
  const number = document.number.toUpperCase().replace(/[\s-]/g, "");
  const country = document.issuingCountry.trim().toUpperCase();
  return toHex(await hmacSha256(key, `${country}:${number}`));
}
