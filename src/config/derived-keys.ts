// Keys derived from SECRETS_KEY, one per purpose (src/lib/crypto.ts, derivedHmacKey): values the service
// stores or logs keyed by them (an account's counter rows, a mail recipient in a log line) cannot be
// recomputed from a copy of the database or the logs without the Worker secret. Derived once per isolate
// and purpose. A new SECRETS_KEY gives new keys: counters start again (they live a day at most) and later
// log lines stop matching earlier ones, which nothing relies on.
import { derivedHmacKey } from "../lib/crypto";
import { secret, type Settings } from "./settings";

export type KeyPurpose = "account-counters" | "mail-log";

const derived = new WeakMap<Settings, Map<KeyPurpose, Promise<CryptoKey>>>();

export function derivedKey(settings: Settings, purpose: KeyPurpose): Promise<CryptoKey> {
  let keys = derived.get(settings);
  if (!keys) derived.set(settings, (keys = new Map()));
  let key = keys.get(purpose);
  if (!key) {
    key = derivedHmacKey(secret(settings, "SECRETS_KEY"), `age-verification/${purpose}/v1`);
    keys.set(purpose, key);
    key.catch(() => keys.delete(purpose));
  }
  return key;
}
