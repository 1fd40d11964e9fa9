// docs/integrating.md, receipts: a JWS a stranger verifies with a stock JOSE library against the served key set,
// which fails when any claim changes. This is the example of docs/receipts.md.
import { env } from "cloudflare:test";
import type { JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { signReceipt, type ReceiptClaims } from "../../src/session/receipts";
import { toBase64Url, utf8, fromBase64Url, fromUtf8 } from "../../src/lib/encoding";
import { call } from "../helpers/http";
import { callWith } from "../helpers/kyc";
import { verifyReceipt as verifiedReceipt } from "../helpers/receipts";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { complete, openSession } from "../helpers/sessions";
import { settingsOf } from "../../src/config/settings";

const verifyReceipt = async (receipt: string, keySet?: JSONWebKeySet) => (await verifiedReceipt(receipt, keySet)).claims;

/** Claims of a resolved session, written out by hand (never produced by the code under test). */
const someClaims = (): ReceiptClaims => ({
  receipt_id: "rcpt_control",
  session_id: "ses_control",
  merchant_id: "usr_control",
  age_required: 18,
  outcome: "APPROVED",
  assurance: "KYC_VERIFIED",
  holder_binding: "PASSWORD",
  denial_reason: null,
  resolved_at: "2026-11-22T06:30:00.000Z",
  livemode: true,
  iat: 1795329000,
  iss: env.APP_URL,
});

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
      denial_reason: null,
      resolved_at: completed.resolved_at,
      livemode: true,
      iat: Math.floor(Date.parse(completed.resolved_at) / 1000),
      iss: env.APP_URL,
    });
    // The whole protected header, as docs/receipts.md gives it: nothing more, nothing less.
    expect(JSON.parse(fromUtf8(fromBase64Url(completed.receipt.split(".")[0])))).toEqual({
      alg: "EdDSA",
      kid: "dev-receipts-1",
      typ: "age-receipt+jwt",
    });
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
    expect(claims.denial_reason).toBe("UNDER_AGE");
    const changes: [string, unknown][] = [
      ["receipt_id", "rcpt_forged"],
      ["session_id", "ses_forged"],
      ["merchant_id", "usr_forged"],
      ["age_required", 13],
      ["outcome", "APPROVED"],
      ["assurance", "NONE"],
      ["holder_binding", "PASSKEY"],
      ["denial_reason", "DECLINED"],
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

  it("a receipt signed with a key that is not published does not verify; the same claims signed with the service's key do", async () => {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
    const forged = await signReceipt(
      settingsOf({ ...env, RECEIPT_SIGNING_KEY: JSON.stringify({ ...jwk, kid: "dev-receipts-1" }) }),
      someClaims(),
    );
    await expect(verifyReceipt(forged)).rejects.toThrow();
    // The positive control: the same claims under the published key verify, so the refusal above is the key's.
    expect(await verifyReceipt(await signReceipt(settingsOf(env), someClaims()))).toEqual(someClaims());
  });

  it("during a rotation the served key set publishes the new key first and the previous one, and both verify their receipts", async () => {
    const old = JSON.parse(env.RECEIPT_SIGNING_KEY!) as Record<string, string>;
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const fresh: Record<string, string> = {
      ...((await crypto.subtle.exportKey("jwk", pair.privateKey)) as unknown as Record<string, string>),
      kid: "2026-12",
    };
    const { d: _d, ...oldPublic } = old;
    const rotated = { ...env, RECEIPT_SIGNING_KEY: JSON.stringify(fresh), RECEIPT_SIGNING_KEY_PREVIOUS: JSON.stringify(oldPublic) } as Env;
    // What a verifier fetches from the Worker configured for the rotation, not what a function returns.
    const served = await callWith(rotated, "GET", "/.well-known/jwks.json");
    expect(served.status).toBe(200);
    const set = served.body as unknown as JSONWebKeySet;
    // The live keys, current first; then the test receipts' key (docs/receipts.md, "Test receipts").
    expect(set.keys.filter((k) => !k.kid!.endsWith(".test"))).toEqual([
      { kty: "OKP", crv: "Ed25519", x: fresh.x, kid: "2026-12", alg: "EdDSA", use: "sig" },
      { kty: "OKP", crv: "Ed25519", x: old.x, kid: "dev-receipts-1", alg: "EdDSA", use: "sig" },
    ]);
    expect(set.keys.map((k) => k.kid)).toEqual(["2026-12", "dev-receipts-1", "2026-12.test"]);
    expect(served.text).not.toContain('"d"');
    expect(await verifyReceipt(await signReceipt(settingsOf(rotated), someClaims()), set)).toEqual(someClaims());
    expect(await verifyReceipt(await signReceipt(settingsOf(env), someClaims()), set)).toEqual(someClaims());
    // Once the rotation is over (no previous key), receipts of the old key no longer verify.
    const after = (
      await callWith({ ...rotated, RECEIPT_SIGNING_KEY_PREVIOUS: undefined } as unknown as Env, "GET", "/.well-known/jwks.json")
    ).body as unknown as JSONWebKeySet;
    expect(after.keys.map((k) => k.kid)).toEqual(["2026-12", "2026-12.test"]);
    await expect(verifyReceipt(await signReceipt(settingsOf(env), someClaims()), after)).rejects.toThrow();
  });

  it("the key set is public to any origin, cached five minutes (so a rotation reaches verifiers soon) and holds no private part", async () => {
    const res = await call("GET", "/.well-known/jwks.json", { headers: { origin: "https://verifier.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.text).not.toContain('"d"');
  });
});
