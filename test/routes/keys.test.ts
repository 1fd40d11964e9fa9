import { env } from "cloudflare:test";
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../src/db/schema";
import { keyId } from "../../src/lib/key-id";
import { openSecret } from "../../src/lib/sealed-secret";
import { register, registerBusiness } from "../helpers/accounts";
import { call, expectError } from "../helpers/http";
import { seedAccount } from "../helpers/seed";
import { CALLBACK_URL, openSession, poll } from "../helpers/sessions";
import { dbOfAccount } from "../helpers/shards";

const createKey = (token: string, name = "production") => call("POST", "/api/keys", { token, body: { name } });
const keyRows = async (userId: string) => (await dbOfAccount(userId)).select().from(apiKeys).where(eq(apiKeys.userId, userId));

describe("API keys: happy paths", () => {
  it("a business creates two keys, lists them without secrets, revokes one: it is refused on its next request, the other still works", async () => {
    const merchant = await registerBusiness();
    const first = await createKey(merchant.token, "web shop");
    const second = await createKey(merchant.token, "kiosk");
    expect(first.status).toBe(201);
    expect(first.body.data.apiKey).toMatch(/^svc_sk_live_[\w-]{43}$/);
    expect(first.body.data.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.body.data.key).toMatchObject({
      name: "web shop",
      prefix: first.body.data.apiKey.slice(0, 16),
      lastUsedAt: null,
      revokedAt: null,
      mode: "live",
    });
    expect(first.body.data.key.id).toMatch(/^key_/);

    const listed = await call("GET", "/api/keys", { token: merchant.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.keys.map((k: { name: string }) => k.name)).toEqual(["kiosk", "web shop"]);
    expect(listed.body.data.keys.map((k: { prefix: string }) => k.prefix)).toEqual([
      second.body.data.apiKey.slice(0, 16),
      first.body.data.apiKey.slice(0, 16),
    ]);
    const text = JSON.stringify(listed.body);
    for (const secret of [first.body.data.apiKey, first.body.data.signingSecret, second.body.data.apiKey, second.body.data.signingSecret]) {
      expect(text).not.toContain(secret);
    }

    const opened = await openSession(first.body.data.apiKey);
    const revoked = await call("DELETE", `/api/keys/${first.body.data.key.id}`, { token: merchant.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.key.revokedAt).toEqual(expect.any(String));
    expectError(await poll(first.body.data.apiKey, opened.session_id), 401, "UNAUTHORIZED");
    expect((await openSession(second.body.data.apiKey)).session_id).toMatch(/^ses_/);
    const relisted = await call("GET", "/api/keys", { token: merchant.token });
    expect(relisted.body.data.keys.find((k: { id: string }) => k.id === first.body.data.key.id).revokedAt).toBe(
      revoked.body.data.key.revokedAt,
    );
  });

  it("stores neither secret in clear, and the signing secret decrypts to the bytes shown at creation", async () => {
    const merchant = await registerBusiness();
    const created = await createKey(merchant.token);
    const [row] = await keyRows(merchant.user.id);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(created.body.data.apiKey);
    expect(stored).not.toContain(created.body.data.apiKey.slice(7));
    expect(stored).not.toContain(created.body.data.signingSecret);
    expect(stored).not.toContain(created.body.data.signingSecret.slice(6));
    expect(row!.signingSecretEnc.startsWith(`${await keyId(env.SECRETS_KEY!)}.`)).toBe(true);
    expect(await openSecret(row!.signingSecretEnc, [env.SECRETS_KEY!], row!.id)).toBe(created.body.data.signingSecret);
    await expect(openSecret(row!.signingSecretEnc, ["another-master-key"], row!.id)).rejects.toThrow();
  });

  it("stamps lastUsedAt when the key is used", async () => {
    const merchant = await registerBusiness();
    const created = await createKey(merchant.token);
    await openSession(created.body.data.apiKey);
    await expect.poll(async () => (await keyRows(merchant.user.id))[0]!.lastUsedAt).not.toBeNull();
  });
});

describe("API keys: refusals", () => {
  it("refuses a PERSONAL account and an unverified business with their codes, creating nothing", async () => {
    const personal = await register();
    expectError(await createKey(personal.token), 403, "BUSINESS_ACCOUNT_REQUIRED");
    const unverified = await register({ userType: "BUSINESS", companyName: "Not Yet Ltd" });
    expectError(await createKey(unverified.token), 403, "EMAIL_NOT_VERIFIED");
    expect(await keyRows(personal.user.id)).toEqual([]);
    expect(await keyRows(unverified.user.id)).toEqual([]);
  });

  it("refuses the 21st active key with 409, and allows one again after a revocation", async () => {
    const merchant = await seedAccount({ userType: "BUSINESS" });
    const ids: string[] = [];
    // 20, as docs/api-contract.md §Keys says: written out, not read from the code under test.
    for (let i = 0; i < 20; i++) ids.push((await createKey(merchant.token, `key ${i}`)).body.data.key.id);
    expectError(await createKey(merchant.token, "one too many"), 409, "KEY_LIMIT_REACHED");
    expect((await (await dbOfAccount(merchant.id)).select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, merchant.id)))[0]!.n).toBe(
      20,
    );
    await call("DELETE", `/api/keys/${ids[0]}`, { token: merchant.token });
    expect((await createKey(merchant.token, "replacement")).status).toBe(201);
  });

  it.each([[{ name: "" }], [{ name: "x".repeat(65) }], [{}], [{ name: 7 }]])("refuses the name in %j with 422", async (body) => {
    const merchant = await seedAccount({ userType: "BUSINESS" });
    const res = await call("POST", "/api/keys", { token: merchant.token, body });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors![0]!.path).toBe("name");
    expect(await keyRows(merchant.id)).toEqual([]);
  });
});

describe("API keys: security", () => {
  it("another account's key id is 404 and stays active", async () => {
    const owner = await seedAccount({ userType: "BUSINESS" });
    // On the owner's shard, so that a read which forgot the account would meet the owner's rows.
    const other = await seedAccount({ userType: "BUSINESS", shard: owner.shard });
    const created = await createKey(owner.token);
    expectError(await call("DELETE", `/api/keys/${created.body.data.key.id}`, { token: other.token }), 404, "NOT_FOUND");
    expectError(await call("DELETE", "/api/keys/not-a-key", { token: other.token }), 404, "NOT_FOUND");
    expect((await call("GET", "/api/keys", { token: other.token })).body.data.keys).toEqual([]);
    expect((await openSession(created.body.data.apiKey)).session_id).toMatch(/^ses_/);
  });

  it("a deleted account's keys stop authenticating at once", async () => {
    const merchant = await registerBusiness();
    const created = await createKey(merchant.token);
    expect((await call("DELETE", "/api/users/account", { token: merchant.token })).status).toBe(200);
    const res = await call("POST", "/api/age-verification/session", {
      apiKey: created.body.data.apiKey,
      body: { age_required: 18, callback_url: CALLBACK_URL },
    });
    expectError(res, 401, "UNAUTHORIZED");
  });

  it("a revoked, a malformed and a missing key all get the same 401 body", async () => {
    const merchant = await seedAccount({ userType: "BUSINESS" });
    const created = await createKey(merchant.token);
    await call("DELETE", `/api/keys/${created.body.data.key.id}`, { token: merchant.token });
    const body = { age_required: 18, callback_url: CALLBACK_URL };
    const revoked = await call("POST", "/api/age-verification/session", { apiKey: created.body.data.apiKey, body });
    const malformed = await call("POST", "/api/age-verification/session", { apiKey: "sk_live_123", body });
    const missing = await call("POST", "/api/age-verification/session", { body });
    expectError(revoked, 401, "UNAUTHORIZED");
    expect(malformed.body).toEqual(revoked.body);
    expect(missing.body).toEqual(revoked.body);
  });
});
