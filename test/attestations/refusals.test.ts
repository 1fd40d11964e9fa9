// Every refusal of proof-of-age issuance, each leaving nothing issued: transaction codes (five wrong end
// the offer), single use of offers, codes and access tokens, expiry, PKCE (S256 only, a challenge
// required, the right verifier and redirect_uri), redirect_uri schemes, each fault of a proof, the batch
// size, and who may ask (verified identity, 18 today, a passkey when held, the daily count).
import { env } from "cloudflare:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { attestationGrants } from "../../src/db/schema";
import { registerVerified } from "../helpers/accounts";
import { call, expectError } from "../helpers/http";
import { callWith, verifyKycViaSandbox } from "../helpers/kyc";
import { enrolPasskeyFor } from "../helpers/passkeys";
import { offerFor, verifiedAdult } from "./helpers";
import { toWorker } from "./standard-wallet";
import { base64url, fromBase64url } from "../wallet/cbor";
import { body, credentialRequest, ISSUER_URL, keyPair, nonce, PRE_AUTHORIZED, proof, tokenRequest } from "./wire";

const home = () => drizzle(env.DB);
const grantCount = async (kind: "offer" | "code" | "token" | "nonce") =>
  (await home().select({ n: sql<number>`count(*)` }).from(attestationGrants).where(eq(attestationGrants.kind, kind)))[0]!.n;

const preAuthorizedCode = (offer: Awaited<ReturnType<typeof offerFor>>) =>
  offer.credential_offer.grants[PRE_AUTHORIZED]["pre-authorized_code"] as string;
const wrongCode = (txCode: string) => String((Number(txCode) + 1) % 1_000_000).padStart(6, "0");

async function accessToken(): Promise<string> {
  const offer = await offerFor((await verifiedAdult()).token);
  const res = await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": preAuthorizedCode(offer), tx_code: offer.tx_code });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

async function pkce() {
  const verifier = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, "0")).join("");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  const challenge = btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return { verifier, challenge };
}

const authorizationParams = (challenge: string, overrides: Record<string, string> = {}) => ({
  response_type: "code",
  scope: "proof_of_age",
  client_id: "wallet",
  redirect_uri: "https://wallet.example.org/cb",
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "st",
  ...overrides,
});

async function authorizationCode(token: string, challenge: string, redirectUri = "https://wallet.example.org/cb") {
  const res = await call("POST", "/api/attestations/authorizations", {
    token,
    body: authorizationParams(challenge, { redirect_uri: redirectUri }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(res.body.data.redirect_to).searchParams.get("code")!;
}

describe("request bodies", () => {
  // A body streamed without a Content-Length: how much of it the endpoint pulls before it answers.
  function streamedBody(total: number) {
    const read = { bytes: 0 };
    const chunk = new Uint8Array(16 * 1024).fill(0x61);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (read.bytes >= total) return controller.close();
        read.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    });
    return { stream, read };
  }

  it.each([
    ["POST /token", "/token", "application/x-www-form-urlencoded"],
    ["POST /credential", "/credential", "application/json"],
    [
      "POST /authorize",
      `/authorize?response_type=code&scope=proof_of_age&client_id=w&redirect_uri=https%3A%2F%2Fwallet.example.org%2Fcb&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`,
      "application/x-www-form-urlencoded",
    ],
  ])("%s stops reading a body without a length past 64 KiB (413), instead of buffering all of it", async (_name, path, type) => {
    const { stream, read } = streamedBody(4 * 1024 * 1024);
    const res = await toWorker(`${ISSUER_URL}${path}`, {
      method: "POST",
      headers: { "content-type": type, authorization: "Bearer abc" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "PAYLOAD_TOO_LARGE" });
    expect(read.bytes).toBeLessThan(256 * 1024);
  });
});

describe("the pre-authorized code and its transaction code", () => {
  it("counts wrong transaction codes: four leave the offer redeemable, the right code then works once", async () => {
    const offer = await offerFor((await verifiedAdult()).token);
    const code = preAuthorizedCode(offer);
    for (let i = 0; i < 4; i++) {
      const res = await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: wrongCode(offer.tx_code) });
      expect(res).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    }
    expect((await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: offer.tx_code })).status).toBe(200);
    // A code used twice: the second exchange is refused and makes no token.
    const tokens = await grantCount("token");
    expect(await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: offer.tx_code })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect(await grantCount("token")).toBe(tokens);
  });

  it("five wrong transaction codes kill the offer: the right one is then refused", async () => {
    const offer = await offerFor((await verifiedAdult()).token);
    const code = preAuthorizedCode(offer);
    for (let i = 0; i < 5; i++)
      await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: wrongCode(offer.tx_code) });
    const tokens = await grantCount("token");
    expect(await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: offer.tx_code })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect(await grantCount("token")).toBe(tokens);
  });

  it("an offer whose count has reached five is dead even while its row is still there: the right code is refused", async () => {
    // The fifth wrong code counts, then deletes the row in a second statement; between the two (or if the
    // delete never ran) the count alone must refuse, or a right code sent alongside the fifth guess works.
    const offer = await offerFor((await verifiedAdult()).token);
    const code = preAuthorizedCode(offer);
    await home().update(attestationGrants).set({ failedAttempts: 5 }).where(eq(attestationGrants.kind, "offer"));
    const tokens = await grantCount("token");
    expect(await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: offer.tx_code })).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });
    expect(await grantCount("token")).toBe(tokens);
  });

  it("concurrent wrong guesses cannot together pass five", async () => {
    const offer = await offerFor((await verifiedAdult()).token);
    const code = preAuthorizedCode(offer);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: String(i).padStart(6, "9") }),
      ),
    );
    expect(guesses.every((res) => res.status === 400)).toBe(true);
    expect((await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": code, tx_code: offer.tx_code })).status).toBe(400);
  });

  it("an expired offer is refused", async () => {
    const offer = await offerFor((await verifiedAdult()).token);
    await home()
      .update(attestationGrants)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(attestationGrants.kind, "offer"));
    expect(
      await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": preAuthorizedCode(offer), tx_code: offer.tx_code }),
    ).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("a token request without its transaction code, or not form-encoded, is invalid_request", async () => {
    const offer = await offerFor((await verifiedAdult()).token);
    expect(await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": preAuthorizedCode(offer) })).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    const asJson = await toWorker(`${ISSUER_URL}/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: PRE_AUTHORIZED }),
    });
    expect(asJson.status).toBe(400);
    expect(await asJson.json()).toMatchObject({ error: "invalid_request" });
    // Not spent by the malformed requests.
    expect(
      (await tokenRequest({ grant_type: PRE_AUTHORIZED, "pre-authorized_code": preAuthorizedCode(offer), tx_code: offer.tx_code })).status,
    ).toBe(200);
  });
});

describe("the authorization code and PKCE", () => {
  it("GET /authorize refuses plain, a missing challenge and unsafe redirect_uris with invalid_request, redirecting nowhere", async () => {
    const { challenge } = await pkce();
    for (const overrides of [
      { code_challenge_method: "plain" },
      { code_challenge: "" },
      { code_challenge_method: "" },
      { redirect_uri: "http://wallet.example.org/cb" },
      { redirect_uri: "javascript:alert(1)" },
      { redirect_uri: "data:text/html,hi" },
      { scope: "openid" },
    ] as Record<string, string>[]) {
      const params = Object.fromEntries(Object.entries(authorizationParams(challenge, overrides)).filter(([, v]) => v !== ""));
      const res = await toWorker(`${ISSUER_URL}/authorize?${new URLSearchParams(params)}`, { redirect: "manual" });
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toMatchObject({ error: "invalid_request" });
    }
  });

  // The redirect_uri is checked against a list of what may receive a code (docs/attestations.md): https, or
  // a wallet's private-use scheme in the reverse-domain form of RFC 8252 §7.1. Everything else is refused,
  // each kind here, including schemes no blocklist would think of.
  const REFUSED_REDIRECTS = [
    "http://wallet.example.org/cb",
    "http://localhost:8080/cb",
    "javascript:alert(1)",
    "JavaScript://wallet.example.org/%0aalert(1)",
    "data:text/html,hi",
    "file:///etc/passwd",
    "blob:https://wallet.example.org/0b2c6a6e-4d5c-4b8f-9a0e-1c2d3e4f5a6b",
    "vbscript:msgbox(1)",
    "about:blank",
    "ws://wallet.example.org/cb",
    "wss://wallet.example.org/cb",
    "ftp://wallet.example.org/cb",
    "intent://cb#Intent;scheme=https;end",
    "wallet://cb",
    "mailto:someone@example.org",
    "com.example.:/cb",
    ".com.example:/cb",
    "com..example:/cb",
    "com.example+app:/cb",
    "https://wallet.example.org/cb#fragment",
    "/relative/cb",
    // Schemes that hand a web address to a browser: the page would name an app while the code went to a website.
    "microsoft-edge:https://evil.example/cb",
    "x-safari-https://evil.example/cb",
    "googlechromes://evil.example/cb",
    "firefox:https://evil.example/cb",
    "opera-https://evil.example/cb",
    "brave://evil.example/cb",
  ];

  it("GET /authorize refuses every redirect_uri that is not https or a reverse-domain scheme, redirecting nowhere", async () => {
    const { challenge } = await pkce();
    for (const redirectUri of REFUSED_REDIRECTS) {
      const res = await toWorker(
        `${ISSUER_URL}/authorize?${new URLSearchParams(authorizationParams(challenge, { redirect_uri: redirectUri }))}`,
        { redirect: "manual" },
      );
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.get("location"), redirectUri).toBeNull();
      expect(await res.json(), redirectUri).toMatchObject({ error: "invalid_request" });
    }
  });

  it("the approval refuses them too (422) and issues no code", async () => {
    const account = await verifiedAdult();
    const { challenge } = await pkce();
    const codes = await grantCount("code");
    for (const redirectUri of REFUSED_REDIRECTS) {
      const res = await call("POST", "/api/attestations/authorizations", {
        token: account.token,
        body: authorizationParams(challenge, { redirect_uri: redirectUri }),
      });
      expect(res.status, redirectUri).toBe(422);
      expect(res.body.error, redirectUri).toBe("VALIDATION_FAILED");
    }
    expect(await grantCount("code")).toBe(codes);
  });

  it("https and a wallet's reverse-domain scheme (the EU wallet's eu.europa.ec.euidi://, RFC 8252's com.example.app:/) get a code", async () => {
    const account = await verifiedAdult();
    for (const redirectUri of [
      "https://wallet.example.org/cb?x=1",
      "eu.europa.ec.euidi://authorization",
      "com.example.app:/oauth2redirect/example-provider",
      "org.example-wallet.app2://cb",
    ]) {
      const res = await call("POST", "/api/attestations/authorizations", {
        token: account.token,
        body: authorizationParams((await pkce()).challenge, { redirect_uri: redirectUri }),
      });
      expect(res.status, `${redirectUri}: ${res.text}`).toBe(200);
      const target = new URL(res.body.data.redirect_to as string);
      expect(target.protocol, redirectUri).toBe(new URL(redirectUri).protocol);
      expect(target.searchParams.get("code"), redirectUri).toBeTruthy();
    }
  });

  it("the approval refuses the same requests (422) and issues no code", async () => {
    const account = await verifiedAdult();
    const { challenge } = await pkce();
    const codes = await grantCount("code");
    for (const overrides of [
      { code_challenge_method: "plain" },
      { code_challenge: "" },
      { redirect_uri: "http://wallet.example.org/cb" },
    ] as Record<string, string>[]) {
      expectError(
        await call("POST", "/api/attestations/authorizations", { token: account.token, body: authorizationParams(challenge, overrides) }),
        422,
        "VALIDATION_FAILED",
      );
    }
    expect(await grantCount("code")).toBe(codes);
  });

  it("a wrong verifier is invalid_grant and spends the code", async () => {
    const account = await verifiedAdult();
    const { verifier, challenge } = await pkce();
    const code = await authorizationCode(account.token, challenge);
    const other = await pkce();
    const form = { grant_type: "authorization_code", code, redirect_uri: "https://wallet.example.org/cb" };
    expect(await tokenRequest({ ...form, code_verifier: other.verifier })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await tokenRequest({ ...form, code_verifier: verifier })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("a code is bound to its redirect_uri, and used once", async () => {
    const account = await verifiedAdult();
    const { verifier, challenge } = await pkce();
    const elsewhere = await authorizationCode(account.token, challenge);
    expect(
      await tokenRequest({
        grant_type: "authorization_code",
        code: elsewhere,
        code_verifier: verifier,
        redirect_uri: "https://attacker.example.org/cb",
      }),
    ).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const code = await authorizationCode(account.token, challenge);
    const form = { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: "https://wallet.example.org/cb" };
    expect((await tokenRequest(form)).status).toBe(200);
    expect(await tokenRequest(form)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });
});

describe("proofs of possession: any bad proof refuses the whole request and issues nothing", () => {
  it.each([
    ["a wrong audience", { aud: "https://other-issuer.example" }, "invalid_proof"],
    ["a wrong type", { typ: "JWT" }, "invalid_proof"],
    ["another algorithm", { alg: "ES384" }, "invalid_proof"],
    ["an iat six minutes old", { iat: Math.floor(Date.now() / 1000) - 360 }, "invalid_proof"],
    ["an iat six minutes ahead", { iat: Math.floor(Date.now() / 1000) + 360 }, "invalid_proof"],
    ["a nonce the service never gave", { nonce: "made-up-nonce" }, "invalid_nonce"],
    ["a key named by kid as well", { headerExtra: { kid: "k1" } }, "invalid_proof"],
  ] as const)("%s", async (_name, faults, error) => {
    const token = await accessToken();
    const fresh = await nonce();
    const good = await proof(await keyPair(), fresh);
    const bad = await proof(await keyPair(), fresh, faults);
    const res = await credentialRequest(token, body([good, bad]));
    expect(res.status).toBe(400);
    expect(res.body).toStrictEqual({ error, error_description: expect.any(String) });
  });

  it("a jwk whose coordinates are not exactly 32 bytes (leading zero bytes, which WebCrypto still imports) is refused and spends nothing", async () => {
    // Otherwise the MSO would carry the proof's 33- or 34-byte coordinates as its COSE device key: an
    // attestation no strict verifier can read, signed by this service.
    const token = await accessToken();
    const pair = await keyPair();
    const { x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
    const leadingZeros = (coordinate: string, count: number) =>
      base64url(new Uint8Array([...new Array<number>(count).fill(0), ...fromBase64url(coordinate)]));
    for (const jwk of [
      { x: leadingZeros(x!, 1), y },
      { x, y: leadingZeros(y!, 2) },
    ]) {
      const res = await credentialRequest(
        token,
        body([await proof(pair, await nonce(), { headerExtra: { jwk: { kty: "EC", crv: "P-256", ...jwk } } })]),
      );
      expect(res).toMatchObject({
        status: 400,
        body: { error: "invalid_proof", error_description: "Proof 1: jwk must be a public P-256 key." },
      });
    }
    expect((await credentialRequest(token, body([await proof(pair, await nonce())]))).status).toBe(200);
  });

  it("a proof signed by another key than its jwk", async () => {
    const token = await accessToken();
    const fresh = await nonce();
    const res = await credentialRequest(token, body([await proof(await keyPair(), fresh, { signWith: (await keyPair()).privateKey })]));
    expect(res).toMatchObject({ status: 400, body: { error: "invalid_proof" } });
  });

  it("a refused request spends neither the token nor issues anything; a spent nonce is not fresh again", async () => {
    const token = await accessToken();
    const used = await nonce();
    const pair = await keyPair();
    expect((await credentialRequest(token, body([await proof(pair, used, { aud: "https://x.example" })]))).status).toBe(400);
    const ok = await credentialRequest(token, body([await proof(pair, used)]));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.credentials).toHaveLength(1);
    const again = await credentialRequest(await accessToken(), body([await proof(pair, used)]));
    expect(again).toMatchObject({ status: 400, body: { error: "invalid_nonce" } });
  });

  it("more proofs than the batch size is refused", async () => {
    const token = await accessToken();
    const fresh = await nonce();
    const pair = await keyPair();
    const jwts = await Promise.all(Array.from({ length: 31 }, () => proof(pair, fresh)));
    expect(await credentialRequest(token, body(jwts))).toMatchObject({ status: 400, body: { error: "invalid_credential_request" } });
    expect(await credentialRequest(token, body([]))).toMatchObject({ status: 400, body: { error: "invalid_credential_request" } });
  });

  it("a second credential request with the same access token is refused (401 invalid_token)", async () => {
    const token = await accessToken();
    const first = await credentialRequest(token, body([await proof(await keyPair(), await nonce())]));
    expect(first.status).toBe(200);
    const second = await toWorker(`${ISSUER_URL}/credential`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body([await proof(await keyPair(), await nonce())])),
    });
    expect(second.status).toBe(401);
    expect(second.headers.get("www-authenticate")).toContain("invalid_token");
    expect(await second.json()).toMatchObject({ error: "invalid_token" });
  });

  it("thirty proofs issue thirty attestations", async () => {
    const token = await accessToken();
    const fresh = await nonce();
    const jwts = await Promise.all(Array.from({ length: 30 }, async () => proof(await keyPair(), fresh)));
    const res = await credentialRequest(token, body(jwts));
    expect(res.status).toBe(200);
    expect(res.body.credentials).toHaveLength(30);
  });
});

describe("who may ask", () => {
  it("an account without a verified identity: 403 KYC_REQUIRED, no offer", async () => {
    const account = await registerVerified();
    const offers = await grantCount("offer");
    expectError(await call("POST", "/api/attestations/offers", { token: account.token, body: {} }), 403, "KYC_REQUIRED");
    expect(await grantCount("offer")).toBe(offers);
  });

  it("an account under 18 today: 403 ATTESTATION_NOT_ALLOWED, no offer and no code", async () => {
    const account = await registerVerified();
    const seventeen = new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    await verifyKycViaSandbox(account.token, seventeen);
    const [offers, codes] = [await grantCount("offer"), await grantCount("code")];
    expectError(await call("POST", "/api/attestations/offers", { token: account.token, body: {} }), 403, "ATTESTATION_NOT_ALLOWED");
    expectError(
      await call("POST", "/api/attestations/authorizations", { token: account.token, body: authorizationParams((await pkce()).challenge) }),
      403,
      "ATTESTATION_NOT_ALLOWED",
    );
    expect([await grantCount("offer"), await grantCount("code")]).toStrictEqual([offers, codes]);
  });

  it("an account with a passkey asking without an assertion: 403 PASSKEY_REQUIRED", async () => {
    const account = await verifiedAdult();
    await enrolPasskeyFor(account);
    expectError(await call("POST", "/api/attestations/offers", { token: account.token, body: {} }), 403, "PASSKEY_REQUIRED");
  });

  it("over its daily count of batches: 429 with Retry-After to the end of the UTC day, no offer", async () => {
    const account = await verifiedAdult();
    const limited = { ...env, ATTESTATION_BATCHES_PER_DAY: "2" } as Env;
    for (let i = 0; i < 2; i++)
      expect((await callWith(limited, "POST", "/api/attestations/offers", { token: account.token, body: {} })).status).toBe(201);
    const offers = await grantCount("offer");
    const refused = await callWith(limited, "POST", "/api/attestations/offers", { token: account.token, body: {} });
    expectError(refused, 429, "RATE_LIMITED");
    const endOfDay = Math.ceil(Date.now() / 86_400_000) * 86_400_000;
    expect(Number(refused.headers.get("retry-after"))).toBeCloseTo((endOfDay - Date.now()) / 1000, -2);
    expect(await grantCount("offer")).toBe(offers);
  });

  it("without a sign-in: 401", async () => {
    expectError(await call("POST", "/api/attestations/offers", { body: {} }), 401, "UNAUTHORIZED");
  });
});
