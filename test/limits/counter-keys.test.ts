// The per-account counter rows are keyed by an HMAC under a key derived from SECRETS_KEY (docs/limits.md,
// "Privacy"; src/config/derived-keys.ts): someone holding a copy of the database cannot recompute an account's
// row keys from its id and read how often it answered sessions. The expected keys are computed here
// with Web Crypto directly, from the documented derivation, not with the code under test.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { accountCounters } from "../../src/db/schema";
import { callWith } from "../helpers/kyc";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { openSession } from "../helpers/sessions";
import { dbOfAccount } from "../helpers/shards";

const text = (value: string) => new TextEncoder().encode(value);
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** HKDF-SHA256(SECRETS_KEY, salt empty, info "age-verification/account-counters/v1") as an HMAC-SHA256 key. */
async function expectedKey(secretsKey: string, message: string): Promise<string> {
  const material = await crypto.subtle.importKey("raw", text(secretsKey), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: text("age-verification/account-counters/v1") }, material, 256);
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
    const res = await callWith(env, "POST", `/api/age-verification/session/${session.session_id}/complete`, { token: user.token, body: { nonce: session.nonce, consent: true } });
    expect(res.status).toBe(200);
    // The end user's counters live on the end user's shard.
    const keys = (await (await dbOfAccount(user.id)).select().from(accountCounters)).map((row) => row.key);

    for (const [name, seconds] of [["completion-day", 86_400]] as const) {
      const message = `${name}:${user.id}:${windowStart(seconds, at)}`;
      expect(keys).toContain(await expectedKey(env.SECRETS_KEY!, message));
      // The unkeyed hash of the same text, which a database reader could compute, is not stored.
      expect(keys).not.toContain(hex(await crypto.subtle.digest("SHA-256", text(message))));
      // Under another SECRETS_KEY the key differs: the Worker secret is what makes it.
      expect(keys).not.toContain(await expectedKey("another secrets key entirely, 32 bytes", message));
    }
  });
});
