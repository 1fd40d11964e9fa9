// Redemption through the real routes, D1 and the session's Durable Object (docs/api-contract.md §Age tokens): an age token
// approves a session once with no account (APPROVED, KYC_VERIFIED, ANONYMOUS_TOKEN, a signed receipt
// and callback); every refusal leaves the session PENDING and the token unspent, so it still approves
// another session afterwards.
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { spentAgeTokens } from "../../src/db/schema";
import { call, expectError } from "../helpers/http";
import { verifyReceipt } from "../helpers/receipts";
import { db, seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, poll, rewindExpiry } from "../helpers/sessions";
import { freshKey, setting, DEV_SETTING } from "./helpers";
import { b64url, createTokenRequest, tokenChallenge, toHexString, unb64url } from "./rfc-client";
import { directoryKey, SERVICE_CHALLENGE, SERVICE_HOST, stockTokens } from "./service-client";

const CALLBACK_URL = "https://merchant.example/hooks/age";
type Merchant = Awaited<ReturnType<typeof seedMerchant>>;
type Opened = { session_id: string; nonce: string };

let merchant: Merchant;
let adult: { token: string; id: string };
beforeAll(async () => {
  merchant = await seedMerchant();
  adult = await seedEndUser(birthdayToday(30));
});
afterEach(() => vi.restoreAllMocks());

async function open(body: Record<string, unknown> = {}, apiKey = merchant.apiKey): Promise<Opened> {
  const res = await call("POST", "/api/age-verification/session", {
    apiKey,
    body: { age_required: 18, callback_url: CALLBACK_URL, double_blind: true, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as Opened;
}

/** The anonymous complete: no Authorization header at all. */
const redeem = (session: Opened, ageToken: string | undefined, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
    body: { nonce: session.nonce, consent: true, age_token: ageToken, ...extra },
  });

const nonceHashOf = async (token: string) => toHexString(await crypto.subtle.digest("SHA-256", unb64url(token).slice(2, 34)));
const isSpent = async (token: string) =>
  (
    await db()
      .select()
      .from(spentAgeTokens)
      .where(eq(spentAgeTokens.nonceHash, await nonceHashOf(token)))
  ).length === 1;

async function expectPendingAndUnspent(session: Opened, token: string) {
  expect((await poll(merchant.apiKey, session.session_id)).body.data).toMatchObject({
    status: "PENDING",
    holder_binding: null,
    assurance: null,
  });
  expect(await isSpent(token)).toBe(false);
  // Still good: it approves a fresh session.
  const other = await open();
  expect((await redeem(other, token)).body.data).toMatchObject({ status: "APPROVED" });
}

/** A token finished from a TokenRequest this test shapes itself, signed through the real route. */
async function tokenFor(challenge: Uint8Array<ArrayBuffer>, ageOver = 18) {
  const pending = await createTokenRequest(challenge, await directoryKey(ageOver));
  const res = await call("POST", "/api/age-tokens", {
    token: adult.token,
    body: { age_over: ageOver, token_requests: [b64url(pending.tokenRequest)] },
  });
  expect(res.status, res.text).toBe(200);
  return b64url(await pending.finalize(unb64url(res.body.data.token_responses[0])));
}

describe("a valid token", () => {
  it("approves a double-blind session once: APPROVED, KYC_VERIFIED, ANONYMOUS_TOKEN, a signed receipt and a callback; the second spend is 409", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open();
    const res = await redeem(session, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "APPROVED",
      above_age_required: true,
      assurance: "KYC_VERIFIED",
      holder_binding: "ANONYMOUS_TOKEN",
      double_blind: true,
    });
    const { claims } = await verifyReceipt(res.body.data.receipt);
    expect(claims).toMatchObject({
      outcome: "APPROVED",
      assurance: "KYC_VERIFIED",
      holder_binding: "ANONYMOUS_TOKEN",
      session_id: session.session_id,
    });
    expect((await poll(merchant.apiKey, session.session_id)).body.data).toMatchObject({
      status: "APPROVED",
      holder_binding: "ANONYMOUS_TOKEN",
    });
    await vi.waitFor(() => expect(spy.mock.calls.some(([input]) => String(input) === CALLBACK_URL)).toBe(true), { timeout: 10_000 });
    const callback = JSON.parse(String(spy.mock.calls.find(([input]) => String(input) === CALLBACK_URL)![1]!.body));
    expect(callback.data).toMatchObject({ status: "APPROVED", assurance: "KYC_VERIFIED", holder_binding: "ANONYMOUS_TOKEN" });
    expect(await isSpent(token!)).toBe(true);
    // Spent: not on this session, not on any other.
    const second = await open();
    expectError(await redeem(second, token), 409, "AGE_TOKEN_SPENT");
    expect((await poll(merchant.apiKey, second.session_id)).body.data.status).toBe("PENDING");
    // On the session it approved, the session answers first: already answered.
    expectError(await redeem(session, token), 409, "SESSION_NOT_PENDING");
  });

  it("two concurrent spends of one token on two sessions: exactly one approves", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    const [a, b] = [await open(), await open()];
    const results = await Promise.all([redeem(a, token), redeem(b, token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("also approves a session that is not double-blind; a token for 21 approves an 18 session", async () => {
    const [token] = await stockTokens(adult.token, 21, 1);
    const session = await open({ double_blind: false });
    expect((await redeem(session, token)).body.data).toMatchObject({
      status: "APPROVED",
      holder_binding: "ANONYMOUS_TOKEN",
      double_blind: false,
    });
  });
});

describe("refusals leave the session PENDING and the token unspent", () => {
  it("a token for 18 against 21: 422 AGE_TOKEN_INSUFFICIENT", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open({ age_required: 21 });
    expectError(await redeem(session, token), 422, "AGE_TOKEN_INSUFFICIENT");
    await expectPendingAndUnspent(session, token!);
  });

  it("a changed byte anywhere (nonce, challenge digest, key id, signature): 422 AGE_TOKEN_INVALID", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open();
    for (const at of [5, 40, 70, 98, 300]) {
      const bytes = unb64url(token!);
      bytes[at]! ^= 0x01;
      expectError(await redeem(session, b64url(bytes)), 422, "AGE_TOKEN_INVALID");
    }
    await expectPendingAndUnspent(session, token!);
  });

  it("another token type, a truncated token, not base64url: 422", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open();
    const otherType = unb64url(token!);
    otherType[1] = 0x01;
    expectError(await redeem(session, b64url(otherType)), 422, "AGE_TOKEN_INVALID");
    expectError(await redeem(session, b64url(unb64url(token!).slice(0, 300))), 422, "AGE_TOKEN_INVALID");
    const bad = await redeem(session, "not*base64");
    expect(bad.status).toBe(422);
    await expectPendingAndUnspent(session, token!);
  });

  it("the challenge of another issuer, or another origin, or with a redemption context: 422 AGE_TOKEN_INVALID", async () => {
    const session = await open();
    for (const challenge of [
      tokenChallenge("issuer.example", new Uint8Array(0), SERVICE_HOST),
      tokenChallenge(SERVICE_HOST, new Uint8Array(0), "shop.example"),
      tokenChallenge(SERVICE_HOST, new Uint8Array(32).fill(7), SERVICE_HOST),
    ]) {
      expectError(await redeem(session, await tokenFor(challenge)), 422, "AGE_TOKEN_INVALID");
    }
    expect((await poll(merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
    // The service's own challenge, built from the RFC by the test, works.
    expect((await redeem(session, await tokenFor(SERVICE_CHALLENGE))).body.data.status).toBe("APPROVED");
  });

  it("a token under an unknown key, or a key since retired: 422 AGE_TOKEN_INVALID", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    // The deployment rotates 18 to a fresh key and drops the old one (retired): its tokens are refused.
    const dev = JSON.parse(DEV_SETTING) as { age_over: number; current: string }[];
    const rotated = {
      ...env,
      AGE_TOKEN_KEYS: setting([{ age_over: 18, current: await freshKey() }, dev.find((k) => k.age_over === 21)!]),
    } as Env;
    const session = await open();
    const { request } = await import("./service-client");
    const res = await request(
      "POST",
      `/api/age-verification/session/${session.session_id}/complete`,
      { body: { nonce: session.nonce, consent: true, age_token: token } },
      rotated,
    );
    expectError(res, 422, "AGE_TOKEN_INVALID");
    // While the old key is still published as previous, its token is accepted.
    const withPrevious = {
      ...env,
      AGE_TOKEN_KEYS: setting([{ age_over: 18, current: await freshKey(), previous: dev[0]!.current }, dev[1]!]),
    } as Env;
    await expectPendingAndUnspent(session, token!);
    const another = await open();
    const accepted = await request(
      "POST",
      `/api/age-verification/session/${another.session_id}/complete`,
      { body: { nonce: another.nonce, consent: true, age_token: (await stockTokens(adult.token, 18, 1))[0] } },
      withPrevious,
    );
    expect(accepted.body.data).toMatchObject({ status: "APPROVED" });
  });

  it("a wrong nonce is 404; consent false is 422; a token with a Bearer token is 403 on a double-blind session, 422 on another", async () => {
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open();
    expectError(await redeem({ ...session, nonce: "wrong-nonce" }, token), 404, "NOT_FOUND");
    expectError(await redeem(session, token, { consent: false }), 422, "VALIDATION_FAILED");
    const both = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
      token: adult.token,
      body: { nonce: session.nonce, consent: true, age_token: token },
    });
    expectError(both, 403, "DOUBLE_BLIND_REQUIRED");
    const plain = await open({ double_blind: false });
    const bothOnPlain = await call("POST", `/api/age-verification/session/${plain.session_id}/complete`, {
      token: adult.token,
      body: { nonce: plain.nonce, consent: true, age_token: token },
    });
    expectError(bothOnPlain, 422, "VALIDATION_FAILED");
    await expectPendingAndUnspent(session, token!);
  });

  it("an answered or expired session is 409 SESSION_NOT_PENDING", async () => {
    const [first, token] = await stockTokens(adult.token, 18, 2);
    const session = await open();
    expect((await redeem(session, first)).status).toBe(200);
    expectError(await redeem(session, token), 409, "SESSION_NOT_PENDING");
    expect(await isSpent(token!)).toBe(false);
    const expiring = await open();
    await rewindExpiry(expiring.session_id);
    expectError(await redeem(expiring, token), 409, "SESSION_NOT_PENDING");
    expect((await poll(merchant.apiKey, expiring.session_id)).body.data.status).toBe("EXPIRED");
    expect(await isSpent(token!)).toBe(false);
  });

  it("a merchant that does not accept KYC_VERIFIED refuses tokens: 403 ASSURANCE_NOT_ACCEPTED", async () => {
    // Development offers the digital ID (wrangler.toml's test trust anchor), so a merchant may accept only it.
    expect(env.DIGITAL_ID_TRUST_ANCHORS).toBeTruthy();
    const [token] = await stockTokens(adult.token, 18, 1);
    const session = await open({ accepted_assurance: ["DIGITAL_ID_VERIFIED"], double_blind: false });
    expectError(await redeem(session, token), 403, "ASSURANCE_NOT_ACCEPTED");
    await expectPendingAndUnspent(session, token!);
  });
});

describe("the account's own approval of a double-blind session", () => {
  it("a password approval is 403 DOUBLE_BLIND_REQUIRED, the session stays PENDING", async () => {
    const session = await open();
    const res = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
      token: adult.token,
      body: { nonce: session.nonce, consent: true },
    });
    expectError(res, 403, "DOUBLE_BLIND_REQUIRED");
    expect((await poll(merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
  });

  it("an anonymous complete without a token is 401 with WWW-Authenticate: PrivateToken for the keys that meet age_required (RFC 9577 §2.1)", async () => {
    const keys = (
      JSON.parse((await call("GET", "/.well-known/private-token-issuer-directory")).text) as {
        "token-keys": { "token-key": string; age_over: number }[];
      }
    )["token-keys"];
    const padded = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_");
    const challenge = padded(SERVICE_CHALLENGE);
    const for18 = await open();
    const res = await redeem(for18, undefined);
    expectError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe(
      keys.map((k) => `PrivateToken challenge="${challenge}", token-key="${k["token-key"]}"`).join(", "),
    );
    const for21 = await open({ age_required: 21 });
    expect((await redeem(for21, undefined)).headers.get("www-authenticate")).toBe(
      `PrivateToken challenge="${challenge}", token-key="${keys.find((k) => k.age_over === 21)!["token-key"]}"`,
    );
    // A wrong nonce learns nothing: a plain 401.
    const wrong = await redeem({ ...for18, nonce: "wrong" }, undefined);
    expectError(wrong, 401, "UNAUTHORIZED");
    expect(wrong.headers.get("www-authenticate")).toBeNull();
    expect((await poll(merchant.apiKey, for18.session_id)).body.data.status).toBe("PENDING");
  });
});
