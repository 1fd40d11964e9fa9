// Issue 18, receipts: a JWS a stranger verifies with a stock JOSE library against the served key set,
// which fails when any claim changes. This is the example of docs/receipts.md.
import { env } from "cloudflare:test";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { receiptJwks, signReceipt, type ReceiptClaims } from "../../src/session/receipts";
import { toBase64Url, utf8, fromBase64Url, fromUtf8 } from "../../src/lib/encoding";
import { call } from "../helpers/http";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession } from "../helpers/sessions";
import { settingsOf } from "../../src/config/settings";

async function verifyReceipt(receipt: string) {
  // What an auditor does: fetch the published keys, verify the signature and the issuer.
  const jwks = (await call("GET", "/.well-known/jwks.json")).body as unknown as Parameters<typeof createLocalJWKSet>[0];
  const { payload } = await jwtVerify(receipt, createLocalJWKSet(jwks), { algorithms: ["EdDSA"], issuer: env.APP_URL });
  return payload;
}

function withClaim(receipt: string, name: string, value: unknown): string {
  const [header, payload, signature] = receipt.split(".");
  const claims = JSON.parse(fromUtf8(fromBase64Url(payload!))) as Record<string, unknown>;
  return `${header}.${toBase64Url(utf8(JSON.stringify({ ...claims, [name]: value })))}.${signature}`;
}

describe("receipts", () => {
  it("an approved session's receipt verifies with jose against /.well-known/jwks.json and names only the decision", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("1990-01-01");
    const opened = await openSession(merchant.apiKey, 21);
    const completed = (await complete(user.token, opened.session_id, opened.nonce)).body.data;
    const claims = await verifyReceipt(completed.receipt);
    expect(claims).toEqual({
      receipt_id: completed.receipt_id,
      session_id: opened.session_id,
      merchant_id: merchant.account.id,
      age_required: 21,
      outcome: "APPROVED",
      assurance: "KYC_VERIFIED",
      holder_binding: "PASSWORD",
      resolved_at: completed.resolved_at,
      livemode: true,
      iat: Math.floor(Date.parse(completed.resolved_at) / 1000),
      iss: env.APP_URL,
    });
    expect(decodeProtectedHeader(completed.receipt)).toMatchObject({ alg: "EdDSA", kid: "dev-receipts-1" });
    // Nothing about the person: no user id, email or date of birth anywhere in it.
    const text = fromUtf8(fromBase64Url(completed.receipt.split(".")[1]));
    expect(text).not.toContain(user.id);
    expect(text).not.toContain(user.email);
    expect(text).not.toContain("1990");
  });

  it("fails verification when any claim changes", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser("2015-01-01");
    const opened = await openSession(merchant.apiKey, 18);
    const receipt = (await complete(user.token, opened.session_id, opened.nonce)).body.data.receipt as string;
    const claims = await verifyReceipt(receipt);
    expect(claims.outcome).toBe("DENIED");
    const changes: [string, unknown][] = [
      ["receipt_id", "rcpt_forged"],
      ["session_id", "ses_forged"],
      ["merchant_id", "usr_forged"],
      ["age_required", 13],
      ["outcome", "APPROVED"],
      ["assurance", "NONE"],
      ["holder_binding", "PASSKEY"],
      ["resolved_at", "2030-01-01T00:00:00.000Z"],
      ["livemode", false],
      ["iat", 1],
      ["iss", "https://evil.example"],
    ];
    expect(changes.map(([name]) => name).sort()).toEqual(Object.keys(claims).sort());
    for (const [name, value] of changes) {
      await expect(verifyReceipt(withClaim(receipt, name, value)), name).rejects.toThrow();
    }
  });

  it("a receipt signed with a key that is not published does not verify", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    const claims = { receipt_id: "rcpt_x" } as unknown as ReceiptClaims;
    const forged = await signReceipt(settingsOf({ ...env, RECEIPT_SIGNING_KEY: JSON.stringify({ ...jwk, kid: "dev-receipts-1" }) }), { ...claims, iss: env.APP_URL });
    await expect(verifyReceipt(forged)).rejects.toThrow();
  });

  it("during a rotation the key set publishes the new key first and the previous one, and both verify their receipts", async () => {
    const old = JSON.parse(env.RECEIPT_SIGNING_KEY!) as Record<string, string>;
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const fresh = { ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as unknown as Record<string, string>), kid: "2026-12" };
    const { d: _d, ...oldPublic } = old;
    const rotated = { ...env, RECEIPT_SIGNING_KEY: JSON.stringify(fresh), RECEIPT_SIGNING_KEY_PREVIOUS: JSON.stringify(oldPublic) };
    const set = receiptJwks(settingsOf(rotated));
    expect(set.keys.map((k) => k.kid)).toEqual(["2026-12", "dev-receipts-1"]);
    expect(JSON.stringify(set)).not.toContain('"d"');
    const claims = { receipt_id: "rcpt_a", iss: env.APP_URL } as unknown as ReceiptClaims;
    const keys = createLocalJWKSet(set as unknown as Parameters<typeof createLocalJWKSet>[0]);
    await expect(jwtVerify(await signReceipt(settingsOf(rotated), claims), keys)).resolves.toBeTruthy();
    await expect(jwtVerify(await signReceipt(settingsOf(env), claims), keys)).resolves.toBeTruthy();
  });

  it("the key set is public, cacheable and holds no private part", async () => {
    const res = await call("GET", "/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("max-age");
    expect(res.text).not.toContain('"d"');
  });
});
