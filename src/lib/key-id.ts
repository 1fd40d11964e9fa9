// A short public name for a secret, derived from the secret itself: stored beside what the secret
// protects (a ciphertext, a password hash), it says which of the configured versions to use, with no
// version numbers for an operator to keep in step. 32 bits of SHA-256: enough to tell a handful of
// configured versions apart, and no help to anyone guessing a 32-byte random secret.
import { sha256Hex } from "./crypto";

const cache = new Map<string, Promise<string>>();

export function keyId(secret: string): Promise<string> {
  let id = cache.get(secret);
  if (!id) {
    id = sha256Hex(`key-id:${secret}`).then((hex) => `k${hex.slice(0, 8)}`);
    cache.set(secret, id);
  }
  return id;
}
