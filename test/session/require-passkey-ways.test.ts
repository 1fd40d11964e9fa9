// require_passkey across the ways (docs/passkeys.md, "require_passkey"): a session that asks for it is
// approved only by a key on the person's device used at the moment of approval: a passkey assertion
// (PASSKEY) or a wallet's device signature, an mdoc's or an SD-JWT VC's key-binding JWT (DEVICE_KEY).
// A password approval and an anonymous age token (a bearer token: whoever holds it) are refused with 403
// PASSKEY_REQUIRED, the session stays PENDING and the token unspent. A double-blind session that
// requires a passkey can only be answered by the wallet, so it opens only where that way is accepted and
// offered.
import { createExecutionContext, env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { spentAgeTokens } from "../../src/db/schema";
import { buildRequest, call, expectError, readResponse } from "../helpers/http";
import { db, seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, poll } from "../helpers/sessions";
import { MDL, answer, issueMdoc, issueSdJwtVc, type DigitalRequest } from "../wallet";
import { signerUnderTestRoot } from "../digital-id/wallet-setup";
import { stockTokens } from "../age-tokens/service-client";
import { toHexString, unb64url } from "../age-tokens/rfc-client";

const ORIGIN = new URL(env.APP_URL).origin;
const CALLBACK_URL = "https://merchant.example/hooks/age";
type Merchant = Awaited<ReturnType<typeof seedMerchant>>;
type Opened = { session_id: string; nonce: string; double_blind: boolean };

let merchant: Merchant;
let adult: { token: string; id: string };
beforeAll(async () => {
  merchant = await seedMerchant("Passkey shop");
  adult = await seedEndUser(birthdayToday(30));
});

const openRequest = (body: Record<string, unknown>) =>
  call("POST", "/api/age-verification/session", {
    apiKey: merchant.apiKey,
    body: { age_required: 18, callback_url: CALLBACK_URL, ...body },
  });

async function open(body: Record<string, unknown>): Promise<Opened> {
  const res = await openRequest(body);
  expect(res.status, res.text).toBe(201);
  return res.body.data as Opened;
}

/** The anonymous complete: no Authorization header, an age token. */
const redeem = (session: Opened, ageToken: string) =>
  call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
    body: { nonce: session.nonce, consent: true, age_token: ageToken },
  });

const isSpent = async (token: string) => {
  const nonceHash = toHexString(await crypto.subtle.digest("SHA-256", unb64url(token).slice(2, 34)));
  return (await db().select().from(spentAgeTokens).where(eq(spentAgeTokens.nonceHash, nonceHash))).length === 1;
};

const expectPending = async (session: Opened) =>
  expect((await poll(merchant.apiKey, session.session_id)).body.data).toMatchObject({
    status: "PENDING",
    assurance: null,
    holder_binding: null,
    receipt_id: null,
  });

/** The wallet's answer to a fresh request of the session. */
async function walletAnswers(session: Opened, credential: "mdoc" | "sd-jwt") {
  const asked = await call("POST", `/api/age-verification/session/${session.session_id}/digital-id/request`, {
    headers: { "x-session-nonce": session.nonce },
  });
  expect(asked.status, asked.text).toBe(200);
  const signer = await signerUnderTestRoot();
  const issued =
    credential === "mdoc" ? await issueMdoc({ kind: MDL, signer, ages: { 18: true } }) : await issueSdJwtVc({ signer, ages: { 18: true } });
  const response = await answer(asked.body.data.requests as DigitalRequest[], issued, { origin: ORIGIN });
  return call("POST", `/api/age-verification/session/${session.session_id}/digital-id/response`, {
    headers: { "x-session-nonce": session.nonce },
    body: response,
  });
}

describe("require_passkey: what is refused", () => {
  it("an anonymous age token is 403 PASSKEY_REQUIRED; the session stays PENDING and the token unspent (it still approves a session that does not ask)", async () => {
    const session = await open({ require_passkey: true });
    const [token] = await stockTokens(adult.token, 18);
    const refused = await redeem(session, token!);
    expectError(refused, 403, "PASSKEY_REQUIRED");
    await expectPending(session);
    expect(await isSpent(token!)).toBe(false);
    const other = await open({});
    expect((await redeem(other, token!)).body.data).toMatchObject({ status: "APPROVED", holder_binding: "ANONYMOUS_TOKEN" });
  });

  it("an anonymous complete without a token is a plain 401: no PrivateToken challenge invites a token the session refuses", async () => {
    const session = await open({ require_passkey: true });
    const res = await call("POST", `/api/age-verification/session/${session.session_id}/complete`, {
      body: { nonce: session.nonce, consent: true },
    });
    expectError(res, 401, "UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBeNull();
    // The same call on a session that does not ask carries the challenge (so the check above means something).
    const other = await open({});
    const challenged = await call("POST", `/api/age-verification/session/${other.session_id}/complete`, {
      body: { nonce: other.nonce, consent: true },
    });
    expect(challenged.headers.get("www-authenticate")).toMatch(/^PrivateToken /);
  });

  it("a password approval is 403 PASSKEY_REQUIRED and the session stays PENDING", async () => {
    const session = await open({ require_passkey: true });
    expectError(await complete(adult.token, session.session_id, session.nonce), 403, "PASSKEY_REQUIRED");
    await expectPending(session);
  });
});

describe("require_passkey: a key on the person's device approves", () => {
  it("a wallet's mdoc device signature approves: DIGITAL_ID_VERIFIED, DEVICE_KEY", async () => {
    const res = await walletAnswers(await open({ require_passkey: true }), "mdoc");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", assurance: "DIGITAL_ID_VERIFIED", holder_binding: "DEVICE_KEY" });
  });

  it("an SD-JWT VC's key-binding JWT (signed by the wallet's device key for this request) approves: DEVICE_KEY", async () => {
    const res = await walletAnswers(await open({ require_passkey: true }), "sd-jwt");
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", assurance: "DIGITAL_ID_VERIFIED", holder_binding: "DEVICE_KEY" });
  });
});

describe("double_blind with require_passkey: the wallet is the only way", () => {
  it("opens where DIGITAL_ID_VERIFIED is accepted and offered; a token is then refused and the wallet approves", async () => {
    const session = await open({ double_blind: true, require_passkey: true });
    expect(session.double_blind).toBe(true);
    const [token] = await stockTokens(adult.token, 18);
    expectError(await redeem(session, token!), 403, "PASSKEY_REQUIRED");
    await expectPending(session);
    expect(await isSpent(token!)).toBe(false);
    const res = await walletAnswers(session, "mdoc");
    expect(res.body.data).toMatchObject({ status: "APPROVED", holder_binding: "DEVICE_KEY" });
  });

  it("the preview (no account) carries require_passkey, so the page can offer the wallet alone", async () => {
    const preview = async (session: Opened) => {
      const res = await call("GET", `/api/age-verification/session/${session.session_id}/preview`, {
        headers: { "x-session-nonce": session.nonce },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.data;
    };
    expect(await preview(await open({ double_blind: true, require_passkey: true }))).toMatchObject({
      double_blind: true,
      require_passkey: true,
      accepted_assurance: expect.arrayContaining(["DIGITAL_ID_VERIFIED"]),
    });
    expect(await preview(await open({ require_passkey: true }))).toMatchObject({ double_blind: false, require_passkey: true });
    expect(await preview(await open({ double_blind: true }))).toMatchObject({ double_blind: true, require_passkey: false });
  });

  it("is 422 VALIDATION_FAILED when the session does not accept DIGITAL_ID_VERIFIED", async () => {
    const res = await openRequest({ double_blind: true, require_passkey: true, accepted_assurance: ["KYC_VERIFIED"] });
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "require_passkey" }));
  });

  it("is 422 VALIDATION_FAILED on a deployment that does not offer digital ID (no trust anchors)", async () => {
    const withoutAnchors = { ...env, DIGITAL_ID_TRUST_ANCHORS: undefined } as unknown as Env;
    const request = buildRequest("POST", "/api/age-verification/session", {
      apiKey: merchant.apiKey,
      body: { age_required: 18, callback_url: CALLBACK_URL, double_blind: true, require_passkey: true },
    });
    const res = await readResponse(await createApp().fetch(request, withoutAnchors, createExecutionContext()));
    expectError(res, 422, "VALIDATION_FAILED");
    expect(res.body.errors).toContainEqual(expect.objectContaining({ path: "require_passkey" }));
  });

  it("each alone still opens: double_blind without require_passkey, require_passkey without double_blind, on a KYC-only session", async () => {
    await open({ double_blind: true, accepted_assurance: ["KYC_VERIFIED"] });
    await open({ require_passkey: true, accepted_assurance: ["KYC_VERIFIED"] });
  });
});
