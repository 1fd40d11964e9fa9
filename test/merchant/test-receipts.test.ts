// A test session's receipt is unmistakable beyond `livemode: false` (docs/security-privacy.md; docs/receipts.md):
// it is signed by a key of its own, kid `<kid>.test`, published in /.well-known/jwks.json beside the live
// keys (docs/api-contract.md §Receipts: one key set). It verifies there by its kid, but under no live key, even for a
// verifier that tries every live key; a live receipt does not verify under the test key. Checked with
// jose, an implementation apart from ours.
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { createApiKey } from "../../src/domain/keys/api-keys";
import { call } from "../helpers/http";
import { root, seedEndUser, seedMerchant } from "../helpers/seed";
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
  it("are signed by the test key alone: its kid says test, and no live key verifies them", async () => {
    const merchant = await seedMerchant();
    const testKey = await createApiKey(root().onShard(merchant.account.shard), merchant.account.id, "test key", "test");
    const session = await openSession(testKey.apiKey);
    const answered = await call("POST", `/api/age-verification/session/${session.session_id}/test-outcome`, {
      apiKey: testKey.apiKey,
      body: { outcome: "APPROVED" },
    });
    expect(answered.status).toBe(200);
    const receipt = answered.body.data.receipt as string;

    const published = await keySet("/.well-known/jwks.json");
    const live = published.keys.filter((k) => !k.kid!.endsWith(".test"));
    const test = published.keys.filter((k) => k.kid!.endsWith(".test"));
    const header = decodeProtectedHeader(receipt);
    expect(header).toEqual({ alg: "EdDSA", kid: `${live[0]!.kid}.test`, typ: "age-receipt+jwt" });
    expect(test.map((k) => k.kid)).toEqual([header.kid]);
    // Against the published set (by its kid) it verifies, and says what it is.
    const { payload } = await jwtVerify(receipt, createLocalJWKSet(published));
    expect(payload).toMatchObject({ livemode: false, outcome: "APPROVED", session_id: session.session_id });
    // Under no live key, by kid or by trying each of them.
    await expect(jwtVerify(receipt, createLocalJWKSet({ keys: live }))).rejects.toThrow();
    expect(await verifiesWithAny(receipt, live)).toBe(false);
    expect(test.some((k) => live.some((l) => l.x === k.x))).toBe(false);
  });

  it("a live receipt verifies under a live key and not under the test key", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const session = await openSession(merchant.apiKey);
    const approved = await complete(user.token, session.session_id, session.nonce);
    expect(approved.status).toBe(200);
    const receipt = approved.body.data.receipt as string;
    const published = await keySet("/.well-known/jwks.json");
    const { payload, protectedHeader } = await jwtVerify(receipt, createLocalJWKSet(published));
    expect(payload.livemode).toBe(true);
    expect(protectedHeader.kid!.endsWith(".test")).toBe(false);
    expect(
      await verifiesWithAny(
        receipt,
        published.keys.filter((k) => k.kid!.endsWith(".test")),
      ),
    ).toBe(false);
  });
});
