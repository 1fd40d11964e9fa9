// Web Crypto primitives: random bytes, hashing, HMAC, constant-time comparison, AES-GCM.
import { fromBase64Url, toBase64Url, toHex, utf8 } from "./encoding";

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length));
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", utf8(text)));
}

/** HMAC-SHA256 of a text (as UTF-8) or of exact bytes, such as a webhook's raw body. */
export async function hmacSha256(key: Uint8Array<ArrayBuffer>, message: string | Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, typeof message === "string" ? utf8(message) : message));
}

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export function timingSafeEqual(a: string, b: string): boolean {
  const left = utf8(a);
  const right = utf8(b);
  // workerd provides crypto.subtle.timingSafeEqual; it needs equal lengths, so compare a digest-free
  // length check first (lengths of our secrets are public: fixed by their format).
  if (left.byteLength !== right.byteLength) return false;
  return crypto.subtle.timingSafeEqual(left, right);
}

const AES_IV_BYTES = 12;

async function aesKey(secret: string): Promise<CryptoKey> {
  // SECRETS_KEY is 32 random bytes in base64url; a shorter development value is stretched with SHA-256
  // so that any configured string yields a 256-bit key.
  const raw = await crypto.subtle.digest("SHA-256", fromBase64Url(secret));
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** Encrypts with AES-GCM under the master secret; the output names the key version so the master can rotate. */
export async function encryptSecret(plaintext: string, masterSecret: string, keyVersion = "v1"): Promise<string> {
  const iv = randomBytes(AES_IV_BYTES);
  const key = await aesKey(masterSecret);
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(keyVersion) },
    key,
    utf8(plaintext),
  );
  return `${keyVersion}.${toBase64Url(iv)}.${toBase64Url(ciphertext)}`;
}

export async function decryptSecret(sealed: string, masterSecrets: Record<string, string>): Promise<string> {
  const [keyVersion, iv, ciphertext] = sealed.split(".");
  const master = keyVersion ? masterSecrets[keyVersion] : undefined;
  if (!master || !iv || !ciphertext) throw new Error("sealed secret has an unknown key version or shape");
  const key = await aesKey(master);
  const plaintext = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: utf8(keyVersion!) },
    key,
    fromBase64Url(ciphertext),
  );
  return new TextDecoder().decode(plaintext);
}
