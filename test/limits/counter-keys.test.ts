// The per-account counter rows are keyed by an HMAC under a key derived from IDENTITY_FINGERPRINT_KEY, a
// Worker secret that is never rotated (docs/limits.md,
// "Privacy"; src/config/derived-keys.ts): someone holding a copy of the database cannot recompute an account's
// row keys from its id and read how often it answered sessions. The expected keys are computed here
// with Web Crypto directly, from the documented derivation, not with the code under test.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountCounters } from "../../src/db/schema";
import { ACCOUNT_LIMITS, counterKeys, type AccountLimitName } from "../../src/domain/limits";
import { serviceContext } from "../../src/service";
import { callWith } from "../helpers/kyc";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { dbOfAccount } from "../helpers/shards";

const text = (value: string) => new TextEncoder().encode(value);
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** HKDF-SHA256(IDENTITY_FINGERPRINT_KEY, salt empty, info "age-verification/account-counters/v1") as an HMAC-SHA256 key. */
async function expectedKey(secretsKey: string, message: string): Promise<string> {
  const material = await crypto.subtle.importKey("raw", text(secretsKey), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: text("age-verification/account-counters/v1") },
    material,
    256,
  );
  const key = await crypto.subtle.importKey("raw", bits, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(await crypto.subtle.sign("HMAC", key, text(message)));
}

const windowStart = (seconds: number, at: number) => Math.floor(at / 1000 / seconds) * seconds;

describe("account counter keys", () => {
  it("are the keyed hash of (window, account, window start), not a hash anyone can recompute from the account id", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const session = await openSession(merchant.apiKey);
    const at = Date.now();
    const res = await callWith(env, "POST", `/api/age-verification/session/${session.session_id}/complete`, {
      token: user.token,
      body: { nonce: session.nonce, consent: true },
    });
    expect(res.status).toBe(200);
    // The end user's counters live on the end user's shard.
    const keys = (await (await dbOfAccount(user.id)).select().from(accountCounters)).map((row) => row.key);

    for (const [name, seconds] of [["completion-day", 86_400]] as const) {
      const message = `${name}:${user.id}:${windowStart(seconds, at)}`;
      expect(keys).toContain(await expectedKey(env.IDENTITY_FINGERPRINT_KEY!, message));
      // Not from SECRETS_KEY, which is rotated: a rotation would start every account's day again.
      expect(keys).not.toContain(await expectedKey(env.SECRETS_KEY!, message));
      // The unkeyed hash of the same text, which a database reader could compute, is not stored.
      expect(keys).not.toContain(hex(await crypto.subtle.digest("SHA-256", text(message))));
      // Under another secret the key differs: the Worker secret is what makes it.
      expect(keys).not.toContain(await expectedKey("another secrets key entirely, 32 bytes", message));
    }
  });

  it("every limit's rows are the same before and after a SECRETS_KEY rotation: no rotation gives an account its day again", async () => {
    const rotatedKey = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    const before = serviceContext(env).settings;
    const during = serviceContext({ ...env, SECRETS_KEY: rotatedKey, SECRETS_KEY_PREVIOUS: env.SECRETS_KEY } as Env).settings;
    const after = serviceContext({ ...env, SECRETS_KEY: rotatedKey } as Env).settings;
    const at = Date.now();
    for (const limit of Object.keys(ACCOUNT_LIMITS) as AccountLimitName[]) {
      const keysUnder = async (settings: typeof before) =>
        (await counterKeys(settings, limit, "usr_counterkeysrotation0000", at)).map((row) => row.key);
      const original = await keysUnder(before);
      expect(await keysUnder(during), limit).toEqual(original);
      expect(await keysUnder(after), limit).toEqual(original);
    }
  });
});
