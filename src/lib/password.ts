// Password hashing: PBKDF2-HMAC-SHA256 through Web Crypto, a random 16-byte salt per password, and a
// pepper (a Worker secret) mixed in with HMAC so a stolen database alone cannot be brute-forced.
// The stored string names its parameters and its pepper: pbkdf2-sha256$<iterations>$<salt>$<hash>$<pepper id>
// (src/lib/key-id.ts), so PASSWORD_PEPPER can rotate: a login under the previous pepper re-hashes under
// the current one. Hashes from before rotation have no pepper id and are tried under each pepper.
import { hmacSha256, randomBytes, timingSafeEqual } from "./crypto";
import { fromBase64Url, toBase64Url, utf8 } from "./encoding";
import { keyId } from "./key-id";

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
  return `${SCHEME}$${iterations}$${toBase64Url(salt)}$${await derive(password, pepper, salt, iterations)}$${await keyId(pepper)}`;
}

export type PasswordCheck = { valid: boolean; needsRehash: boolean };

/**
 * Checks a password under `peppers`, current first (a previous one only during a rotation). A re-hash is
 * due when the password was valid under older parameters, an older pepper, or the format without a
 * pepper id.
 */
export async function verifyPassword(password: string, stored: string, peppers: string | readonly string[]): Promise<PasswordCheck> {
  const invalid = { valid: false, needsRehash: false };
  const [scheme, iterationsText, salt, hash, pepperId, extra] = stored.split("$");
  const iterations = Number(iterationsText);
  if (
    scheme !== SCHEME ||
    !salt ||
    !hash ||
    extra !== undefined ||
    !Number.isInteger(iterations) ||
    iterations < 1 ||
    iterations > PBKDF2_ITERATIONS
  ) {
    return invalid;
  }
  const configured = typeof peppers === "string" ? [peppers] : peppers;
  for (const [index, pepper] of configured.entries()) {
    if (pepperId !== undefined && pepperId !== (await keyId(pepper))) continue;
    if (timingSafeEqual(await derive(password, pepper, fromBase64Url(salt), iterations), hash)) {
      return { valid: true, needsRehash: iterations !== PBKDF2_ITERATIONS || index > 0 || pepperId === undefined };
    }
  }
  return invalid;
}

/**
 * A hash of no one's password, checked when an email is unknown so that login spends the same time
 * whether or not the account exists.
 */
export const DUMMY_PASSWORD_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
