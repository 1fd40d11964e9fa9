// A test session's receipt is unmistakable beyond `livemode: false` (issue 30, item 4; docs/receipts.md):
// it is signed by a key of its own, published apart at /.well-known/jwks-test.json, so it does not verify
// against the live key set at all, even for a verifier that tries every live key, and a live receipt
// does not verify against the test key. Checked with jose, an implementation apart from ours.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { call } from "../helpers/http";
import { domain, seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession } from "../helpers/sessions";

const keySet = async (path: string) => {
  const res = await call("GET", path);
  expect(res.status).toBe(200);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  return res.body as unknown as { keys: JWK[] };
};

async function verifiesWithAny(receipt: string, keys: JWK[]): Promise<boolean> {
  for (const jwk of keys) {
    try {
      await compactVerify(receipt, await importJWK({ ...jwk, kid: undefined }, "EdDSA"));
      return true;
    } catch {
      // not this key
    }
  }
  return false;
}

describe("test receipts", () => {
  it("are signed by the test key alone: they verify against jwks-test.json and never against the live key set", async () => {
    const merchant = await seedMerchant();
    const testKey = await createApiKey(domain(), merchant.account.id, "test key", "test");
    const session = await openSession(testKey.apiKey);
    const answered = await call("POST", `/api/age-verification/session/${session.session_id}/test-outcome`, { apiKey: testKey.apiKey, body: { outcome: "APPROVED" } });
    expect(answered.status).toBe(200);
    const receipt = answered.body.data.receipt as string;

    const live = await keySet("/.well-known/jwks.json");
    const test = await keySet("/.well-known/jwks-test.json");
    const header = decodeProtectedHeader(receipt);
    expect(header).toEqual({ alg: "EdDSA", kid: `${live.keys[0]!.kid}.test`, typ: "age-receipt+jwt" });
    expect(test.keys.map((k) => k.kid)).toEqual([header.kid]);
    const { payload } = await jwtVerify(receipt, createLocalJWKSet(test));
    expect(payload).toMatchObject({ livemode: false, outcome: "APPROVED", session_id: session.session_id });
    // Not against the live set, by kid or by trying each of its keys.
    await expect(jwtVerify(receipt, createLocalJWKSet(live))).rejects.toThrow();
    expect(await verifiesWithAny(receipt, live.keys)).toBe(false);
    // The test key set publishes no live key.
    expect(test.keys.some((k) => live.keys.some((l) => l.x === k.x))).toBe(false);
  });

  it("a live receipt verifies against the live key set and not against the test key", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const session = await openSession(merchant.apiKey);
    const approved = await complete(user.token, session.session_id, session.nonce);
    expect(approved.status).toBe(200);
    const receipt = approved.body.data.receipt as string;
    const { payload } = await jwtVerify(receipt, createLocalJWKSet(await keySet("/.well-known/jwks.json")));
    expect(payload.livemode).toBe(true);
    expect(await verifiesWithAny(receipt, (await keySet("/.well-known/jwks-test.json")).keys)).toBe(false);
  });
});
