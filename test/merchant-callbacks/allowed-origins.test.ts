// Allowed callback origins per key: set through PATCH /api/keys/{id}, enforced when a session is opened.
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { apiKeys, verificationSessions } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { dbOfAccount } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

const setOrigins = (token: string, keyId: string, allowedCallbackOrigins: unknown) =>
  call("PATCH", `/api/keys/${keyId}`, { token, body: { allowedCallbackOrigins } });
const open = (apiKey: string, callback_url: string) =>
  call("POST", "/api/age-verification/session", { apiKey, body: { age_required: 18, callback_url } });
const sessionsOf = async (accountId: string) =>
  (await (await dbOfAccount(accountId)).select().from(verificationSessions).where(eq(verificationSessions.accountId, accountId))).length;

describe("allowed callback origins", () => {
  it("a key with origins opens sessions only with a callback_url on one of them: elsewhere is 422 CALLBACK_ORIGIN_NOT_ALLOWED and opens nothing", async () => {
    const merchant = await seedMerchant();
    const set = await setOrigins(merchant.account.token, merchant.keyId, [
      "https://Hooks.Merchant.example:443",
      "https://merchant.example:8443/",
      "https://hooks.merchant.example",
    ]);
    expect(set.status).toBe(200);
    // Normalised as the URL standard writes an origin, de-duplicated.
    expect(set.body.data.key.allowedCallbackOrigins).toEqual(["https://hooks.merchant.example", "https://merchant.example:8443"]);
    const listed = await call("GET", "/api/keys", { token: merchant.account.token });
    expect(listed.body.data.keys[0].allowedCallbackOrigins).toEqual(["https://hooks.merchant.example", "https://merchant.example:8443"]);

    expect((await open(merchant.apiKey, "https://hooks.merchant.example/age?x=1")).status).toBe(201);
    expect((await open(merchant.apiKey, "https://merchant.example:8443/cb")).status).toBe(201);
    for (const elsewhere of [
      "https://attacker.example/cb",
      "https://merchant.example/cb",
      "https://hooks.merchant.example.attacker.example/",
      "https://hooks.merchant.example:8443/",
    ]) {
      const refused = await open(merchant.apiKey, elsewhere);
      expectError(refused, 422, "CALLBACK_ORIGIN_NOT_ALLOWED");
      expect(refused.body.errors![0]!.path).toBe("callback_url");
    }
    expect(await sessionsOf(merchant.account.id)).toBe(2);

    // null (or []) lifts the restriction.
    expect((await setOrigins(merchant.account.token, merchant.keyId, null)).body.data.key.allowedCallbackOrigins).toBeNull();
    expect((await open(merchant.apiKey, "https://anywhere.example/cb")).status).toBe(201);
  });

  it("an origin with a path, a private host, plain http or too many is 422; another account's key is 404; nothing changes", async () => {
    const merchant = await seedMerchant();
    // On the merchant's shard, so that a read which forgot the account would meet the merchant's rows.
    const other = await seedMerchant("other", "live", { shard: merchant.shard });
    await setOrigins(merchant.account.token, merchant.keyId, ["https://ok.example"]);
    for (const bad of [
      ["https://ok.example/path"],
      ["https://10.1.2.3"],
      ["http://ok.example"],
      ["ok.example"],
      ["https://ok.example?q=1"],
      Array.from({ length: 21 }, (_, i) => `https://h${i}.example`),
      "https://ok.example",
      [42],
    ]) {
      expectError(await setOrigins(merchant.account.token, merchant.keyId, bad), 422, "VALIDATION_FAILED");
    }
    expectError(await setOrigins(other.account.token, merchant.keyId, ["https://evil.example"]), 404, "NOT_FOUND");
    const row = await rowWhere(await dbOfAccount(merchant.account.id), apiKeys, eq(apiKeys.id, merchant.keyId));
    expect(row!.allowedCallbackOrigins).toEqual(["https://ok.example"]);
  });
});

describe("clearing allowed origins, and test events", () => {
  it("[] clears the list: the key opens sessions calling back anywhere again", async () => {
    const merchant = await seedMerchant();
    await setOrigins(merchant.account.token, merchant.keyId, ["https://hooks.merchant.example"]);
    expectError(await open(merchant.apiKey, "https://anywhere.example/cb"), 422, "CALLBACK_ORIGIN_NOT_ALLOWED");
    const cleared = await setOrigins(merchant.account.token, merchant.keyId, []);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.key.allowedCallbackOrigins).toBeNull();
    expect(
      (await rowWhere(await dbOfAccount(merchant.account.id), apiKeys, eq(apiKeys.id, merchant.keyId)))!.allowedCallbackOrigins,
    ).toBeNull();
    expect((await open(merchant.apiKey, "https://anywhere.example/cb")).status).toBe(201);
  });

  it("a test event goes to the URL it names, whatever the key's allowed origins (they govern sessions only)", async () => {
    const merchant = await seedMerchant();
    await setOrigins(merchant.account.token, merchant.keyId, ["https://hooks.merchant.example"]);
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const res = await call("POST", `/api/keys/${merchant.keyId}/test-callback`, {
      token: merchant.account.token,
      body: { url: "https://staging.elsewhere.example/hook" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ delivered: true, status_code: 204 });
    expect(spy.mock.calls.map(([input]) => String(input))).toEqual(["https://staging.elsewhere.example/hook"]);
    spy.mockRestore();
  });
});
