// Secrets at rest (signing secrets): AES-256-GCM under SECRETS_KEY. The stored text is
// "<key id>.<iv>.<ciphertext>" (base64url parts); the key id names the SECRETS_KEY version that sealed
// it (src/lib/key-id.ts), so a rotation adds a key beside the old and each row is opened by its own.
// The additional data binds the ciphertext to its row: "<key id>.<row id>". A ciphertext copied into
// another row does not open there.
//
// Legacy: rows sealed before rotation existed carry the tag "v1" and only "v1" as additional data (no
// row binding). They still open (under any configured key), and the scheduled re-encryption
// (src/maintenance/reencrypt-secrets.ts) rewrites them in the current format.
import { randomBytes } from "./crypto";
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from "./encoding";
import { keyId } from "./key-id";

export const LEGACY_TAG = "v1";
const IV_BYTES = 12;

async function aesKey(secret: string): Promise<CryptoKey> {
  // The AES key is SHA-256 of SECRETS_KEY's bytes: the derivation the legacy rows were sealed with, and
  // any 32-byte secret stays a 256-bit key.
  const raw = await crypto.subtle.digest("SHA-256", fromBase64Url(secret));
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

const rowBinding = (tag: string, rowId: string) => utf8(`${tag}.${rowId}`);

/** Seals `plaintext` for row `rowId` under `secret` (the newest SECRETS_KEY). */
export async function sealSecret(plaintext: string, secret: string, rowId: string): Promise<string> {
  const tag = await keyId(secret);
  const iv = randomBytes(IV_BYTES);
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: rowBinding(tag, rowId) },
    await aesKey(secret),
    utf8(plaintext),
  );
  return `${tag}.${toBase64Url(iv)}.${toBase64Url(ciphertext)}`;
}

/** The key id a sealed text names (LEGACY_TAG for the rows from before rotation). */
export const sealedKeyId = (sealed: string): string => sealed.split(".")[0] ?? "";

/**
 * Opens a sealed secret of row `rowId` with whichever of `secrets` sealed it. Throws when none did, when
 * the text was altered, or when it belongs to another row.
 */
export async function openSecret(sealed: string, secrets: readonly string[], rowId: string): Promise<string> {
  const [tag, iv, ciphertext, extra] = sealed.split(".");
  if (!tag || !iv || !ciphertext || extra !== undefined) throw new Error("sealed secret has an unknown shape");
  if (tag === LEGACY_TAG) {
    for (const secret of secrets) {
      try {
        return await decrypt(secret, iv, ciphertext, utf8(LEGACY_TAG));
      } catch {
        // Not this key: try the next one.
      }
    }
    throw new Error("legacy sealed secret opens under no configured key");
  }
  for (const secret of secrets) {
    if ((await keyId(secret)) === tag) return decrypt(secret, iv, ciphertext, rowBinding(tag, rowId));
  }
  throw new Error("sealed secret names a key that is not configured");
}

async function decrypt(secret: string, iv: string, ciphertext: string, additionalData: Uint8Array<ArrayBuffer>): Promise<string> {
  const plaintext = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(iv), additionalData },
    await aesKey(secret),
    fromBase64Url(ciphertext),
  );
  return fromUtf8(plaintext);
}
