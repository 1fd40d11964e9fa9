// Keys derived from SECRETS_KEY, one per purpose (src/lib/crypto.ts, derivedHmacKey): what the service
// stores keyed by them (an account's counter rows) cannot be recomputed from a copy of the database
// without the Worker secret. Derived once per isolate and purpose. A new SECRETS_KEY gives new keys:
// counters start again, which costs nothing (they live a day at most).
import { derivedHmacKey } from "../lib/crypto";
import { perObject } from "../lib/per-object";
import { secret, type Settings } from "./settings";

export type KeyPurpose = "account-counters" | "attestation-grants";

const keysOf = perObject((_settings: Settings) => new Map<KeyPurpose, Promise<CryptoKey>>());

export function derivedKey(settings: Settings, purpose: KeyPurpose): Promise<CryptoKey> {
  const keys = keysOf(settings);
  let key = keys.get(purpose);
  if (!key) {
    key = derivedHmacKey(secret(settings, "SECRETS_KEY"), `age-verification/${purpose}/v1`);
    keys.set(purpose, key);
    key.catch(() => keys.delete(purpose));
  }
  return key;
}
