// Password hashing: PBKDF2-HMAC-SHA256 through Web Crypto, a random 16-byte salt per password, and a
// pepper (a Worker secret) mixed in with HMAC so a stolen database alone cannot be brute-forced.
// The stored string names its parameters: pbkdf2-sha256$<iterations>$<salt>$<hash>.
import { hmacSha256, randomBytes, timingSafeEqual } from "./crypto";
import { fromBase64Url, toBase64Url, utf8 } from "./encoding";

/** Deployed Workers refuse PBKDF2 above 100,000 iterations (local workerd does not): never raise it. */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
const SCHEME = "pbkdf2-sha256";

async function derive(password: string, pepper: string, salt: Uint8Array<ArrayBuffer>, iterations: number) {
  const peppered = await hmacSha256(utf8(pepper), password);
  const key = await crypto.subtle.importKey("raw", peppered, "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return toBase64Url(bits);
}

export async function hashPassword(password: string, pepper: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${await derive(password, pepper, salt, iterations)}`;
}

export type PasswordCheck = { valid: boolean; needsRehash: boolean };

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<PasswordCheck> {
  const [scheme, iterationsText, salt, hash] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !salt || !hash || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) {
    return { valid: false, needsRehash: false };
  }
  const candidate = await derive(password, pepper, fromBase64Url(salt), iterations);
  const valid = timingSafeEqual(candidate, hash);
  return { valid, needsRehash: valid && iterations !== PBKDF2_ITERATIONS };
}

/**
 * A hash of no one's password, checked when an email is unknown so that login spends the same time
 * whether or not the account exists.
 */
export const DUMMY_PASSWORD_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
