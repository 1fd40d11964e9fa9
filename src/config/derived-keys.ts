// Keys derived from a Worker secret, one per purpose (src/lib/crypto.ts, derivedHmacKey): what the service
// stores keyed by them (an account's counter rows, attestation grants) cannot be recomputed from a copy
// of the database without the secret. Derived once per isolate and purpose. The counters' key comes from
// IDENTITY_FINGERPRINT_KEY, which is never rotated: from SECRETS_KEY, a rotation (or a gradual deploy
// with two values) started every account's day again, the day's age tokens and answers included
// (docs/limits.md "Privacy"). The attestation grants keep SECRETS_KEY, as before.
import { derivedHmacKey } from "../lib/crypto";
import { perObject } from "../lib/per-object";
import { secret, type SecretName, type Settings } from "./settings";

export type KeyPurpose = "account-counters" | "attestation-grants";

const BASE_SECRET: Record<KeyPurpose, SecretName> = { "account-counters": "IDENTITY_FINGERPRINT_KEY", "attestation-grants": "SECRETS_KEY" };

const keysOf = perObject((_settings: Settings) => new Map<KeyPurpose, Promise<CryptoKey>>());

export function derivedKey(settings: Settings, purpose: KeyPurpose): Promise<CryptoKey> {
  const keys = keysOf(settings);
  let key = keys.get(purpose);
  if (!key) {
    key = derivedHmacKey(secret(settings, BASE_SECRET[purpose]), `age-verification/${purpose}/v1`);
    keys.set(purpose, key);
    key.catch(() => keys.delete(purpose));
  }
  return key;
}
