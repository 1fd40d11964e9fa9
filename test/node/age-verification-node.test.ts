// The server library (packages/age-verification-node) on its pure functions, without a server: callbacks
// signed by an independent implementation (the `standardwebhooks` package) and receipts signed by `jose`,
// so no expected value comes from the code under test. Its calls against a running service ride in
// test/e2e/drop-in.e2e.ts. Also keeps the library's copy of the API types equal to the generated ones.
import { generateKeyPair, exportJWK, SignJWT } from "jose";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { API_VERSION } from "../../src/http/api-version";
import { verifyCallback, verifyReceipt, type Jwks } from "../../packages/age-verification-node/src/index";

const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);

const secret = (byte: number) => `whsec_${btoa(String.fromCharCode(...new Uint8Array(32).fill(byte)))}`;
const OLD_SECRET = secret(1);
const NEW_SECRET = secret(2);
const body = JSON.stringify({
  type: "age_verification.session.approved",
  timestamp: "2026-11-24T15:00:00.000Z",
  data: { session_id: "ses_1", status: "APPROVED" },
});

/** What the service sends during a rotation's grace: one signature per secret, newest first. */
function signedHeaders(payload: string, at: Date, secrets: readonly string[]) {
  const id = "msg_2Lq0b1yH8tB3kQf9XcV7aPzR";
  const signatures = secrets.map((s) => new Webhook(s).sign(id, at, payload));
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signatures.join(" ") };
}

describe("verifyCallback (Standard Webhooks)", () => {
  const now = new Date("2026-11-24T15:00:00Z");

  it("accepts a rotated pair: a receiver holding only the old or only the new secret verifies it", async () => {
    const headers = signedHeaders(body, now, [NEW_SECRET, OLD_SECRET]);
    for (const held of [[OLD_SECRET], [NEW_SECRET], [NEW_SECRET, OLD_SECRET]]) {
      await expect(verifyCallback(body, headers, held, { now })).resolves.toMatchObject({
        type: "age_verification.session.approved",
        data: { status: "APPROVED" },
      });
    }
  });

  it("accepts a callback signed with the old secret alone when the receiver already holds both", async () => {
    await expect(
      verifyCallback(body, new Headers(signedHeaders(body, now, [OLD_SECRET])), [NEW_SECRET, OLD_SECRET], { now }),
    ).resolves.toMatchObject({ data: { session_id: "ses_1" } });
  });

  it("refuses a changed body", async () => {
    const headers = signedHeaders(body, now, [NEW_SECRET, OLD_SECRET]);
    await expect(verifyCallback(body.replace("APPROVED", "DENIED"), headers, [NEW_SECRET, OLD_SECRET], { now })).rejects.toThrow(
      /no signature matches/,
    );
  });

  it("refuses a stale timestamp (over 5 minutes old) and one from the future, though validly signed", async () => {
    const signedAt = new Date(now.getTime() - 5 * 60_000 - 1_000);
    await expect(verifyCallback(body, signedHeaders(body, signedAt, [NEW_SECRET]), [NEW_SECRET], { now })).rejects.toThrow(/tolerance/);
    const ahead = new Date(now.getTime() + 5 * 60_000 + 1_000);
    await expect(verifyCallback(body, signedHeaders(body, ahead, [NEW_SECRET]), [NEW_SECRET], { now })).rejects.toThrow(/tolerance/);
    const recent = new Date(now.getTime() - 4 * 60_000);
    await expect(verifyCallback(body, signedHeaders(body, recent, [NEW_SECRET]), [NEW_SECRET], { now })).resolves.toBeTruthy();
  });

  it("refuses a secret the receiver does not hold, and missing headers", async () => {
    await expect(verifyCallback(body, signedHeaders(body, now, [secret(3)]), [NEW_SECRET, OLD_SECRET], { now })).rejects.toThrow(
      /no signature matches/,
    );
    await expect(verifyCallback(body, { "webhook-id": "msg_1" }, [NEW_SECRET], { now })).rejects.toThrow(/missing/);
  });
});

describe("verifyReceipt (EdDSA against the JWKS)", async () => {
  const { privateKey, publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const jwks: Jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "rk-1", alg: "EdDSA", use: "sig" } as Jwks["keys"][number]] };
  const claims = {
    receipt_id: "rcpt_1",
    session_id: "ses_1",
    merchant_id: "usr_1",
    age_required: 18,
    outcome: "APPROVED",
    assurance: "KYC_VERIFIED",
    holder_binding: "PASSWORD",
    denial_reason: null,
    resolved_at: "2026-11-24T15:00:00.000Z",
    livemode: true,
    iat: 1795532400,
    iss: "https://age.example",
  };
  const sign = (kid: string, payload: Record<string, unknown> = claims) =>
    new SignJWT(payload).setProtectedHeader({ alg: "EdDSA", kid, typ: "age-receipt+jwt" }).sign(privateKey);

  it("returns the claims of a receipt signed by a published key", async () => {
    await expect(verifyReceipt(await sign("rk-1"), jwks, { issuer: "https://age.example" })).resolves.toEqual(claims);
  });

  it("refuses a changed claim (the signature no longer matches)", async () => {
    const [header, , signature] = (await sign("rk-1")).split(".");
    const changed = btoa(JSON.stringify({ ...claims, age_required: 16 }))
      .replace(/=+$/, "")
      .replace(/\+/g, "-")
      .replace(/\//g, "_");
    await expect(verifyReceipt(`${header}.${changed}.${signature}`, jwks)).rejects.toThrow(/signature does not match/);
  });

  it("refuses an unpublished kid, another algorithm and another issuer", async () => {
    await expect(verifyReceipt(await sign("rk-2"), jwks)).rejects.toThrow(/no published Ed25519 key/);
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", kid: "rk-1" }).sign(new Uint8Array(32));
    await expect(verifyReceipt(hs, jwks)).rejects.toThrow(/only EdDSA/);
    await expect(verifyReceipt(await sign("rk-1"), jwks, { issuer: "https://other.example" })).rejects.toThrow(/issuer/);
  });
});

describe("the library's package", () => {
  it("is versioned with the API it speaks, an ES module with no runtime dependency", async () => {
    const [fs, { fileURLToPath }] = await Promise.all(["node:fs", "node:url"].map(node));
    const manifest = JSON.parse(
      fs.readFileSync(fileURLToPath(new URL("../../packages/age-verification-node/package.json", import.meta.url)), "utf8"),
    );
    expect(manifest).toMatchObject({ name: "age-verification-node", version: API_VERSION, type: "module" });
    expect(manifest.dependencies ?? {}).toEqual({});
  });
});

describe("the library's API types", () => {
  it("are the generated ones (docs/examples/node/api-types.ts): `npm run openapi` then copy, or --update here", async () => {
    const [fs, { fileURLToPath }] = await Promise.all(["node:fs", "node:url"].map(node));
    const generated: string = fs.readFileSync(fileURLToPath(new URL("../../docs/examples/node/api-types.ts", import.meta.url)), "utf8");
    await expect(generated).toMatchFileSnapshot("../../packages/age-verification-node/src/api-types.ts");
  });
});
