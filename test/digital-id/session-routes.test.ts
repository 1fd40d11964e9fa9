// A wallet's digital ID answering a real session (docs/api-contract.md §Digital ID, docs/digital-id.md): the routes
// `…/digital-id/request` and `…/digital-id/response`, the session's Durable Object, the D1 log, the
// callback and the receipt. One test per check that can fail, each answer made by the test wallet with
// one fault; a refused answer leaves the session PENDING and its log row as it was.
import { createExecutionContext, env, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../src/app";
import { callbackEvents, verificationSessions } from "../../src/db/schema";
import { toBase64 } from "../../src/lib/encoding";
import { eventState } from "../helpers/callbacks";
import { call, expectError } from "../helpers/http";
import { verifyReceipt } from "../helpers/receipts";
import { seedEndUser, seedMerchant } from "../helpers/seed";
import { birthdayToday, complete, poll, sessionObject } from "../helpers/sessions";
import {
  MDL,
  STATUS,
  answer,
  documentSigner,
  issueMdoc,
  issueSdJwtVc,
  issueStatusList,
  makeIssuer,
  sealOpenId4Vp,
  type DigitalRequest,
  type DigitalResponse,
} from "../wallet";
import { serveStatusLists, statusUri, tokenResponse } from "./status-list-server";
import { root, signerUnderTestRoot } from "./wallet-setup";
import { dbOfSession } from "../helpers/shards";
import { rowWhere } from "../helpers/rows";

/** The page's origin: the one of APP_URL, which the browser reports to the wallet. */
const ORIGIN = new URL(env.APP_URL).origin;
const DAY = 86_400_000;
const HOOK = "https://merchant.example.com/hooks/age";

afterEach(() => {
  vi.restoreAllMocks();
});

async function openSession(apiKey: string, ageRequired: number, acceptedAssurance?: string[]) {
  const body: Record<string, unknown> = { age_required: ageRequired, callback_url: HOOK };
  if (acceptedAssurance) body.accepted_assurance = acceptedAssurance;
  const res = await call("POST", "/api/age-verification/session", { apiKey, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { session_id: string; nonce: string };
}

const requestRoute = (sessionId: string, nonce: string) =>
  call("POST", `/api/age-verification/session/${sessionId}/digital-id/request`, { headers: { "x-session-nonce": nonce } });
const responseRoute = (sessionId: string, nonce: string, body: unknown) =>
  call("POST", `/api/age-verification/session/${sessionId}/digital-id/response`, { headers: { "x-session-nonce": nonce }, body });

/** A live session of `ageRequired` and its first digital-ID request. */
async function sessionWithRequest(ageRequired: number, mode: "live" | "test" = "live") {
  const merchant = await seedMerchant("wallet key", mode);
  const opened = await openSession(merchant.apiKey, ageRequired);
  const asked = await requestRoute(opened.session_id, opened.nonce);
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  return { merchant, ...opened, requests: asked.body.data.requests as DigitalRequest[] };
}

const mdl = async (ages: Record<number, boolean>, options: Partial<Parameters<typeof issueMdoc>[0]> = {}) =>
  issueMdoc({
    kind: MDL,
    signer: await signerUnderTestRoot(),
    ages,
    otherElements: { family_name: "Doe", birth_date: "2001-02-03" },
    ...options,
  });

const logRow = async (sessionId: string) =>
  rowWhere(await dbOfSession(sessionId), verificationSessions, eq(verificationSessions.id, sessionId));

/**
 * Sends `response` and expects it refused with `code`, the message naming `reason`; the session stays
 * PENDING (its poll) and its D1 row is exactly as before.
 */
async function expectRefused(
  session: { merchant: { apiKey: string }; session_id: string; nonce: string },
  response: DigitalResponse,
  code: string,
  reason: RegExp,
) {
  const before = await logRow(session.session_id);
  const res = await responseRoute(session.session_id, session.nonce, response);
  expectError(res, 422, code);
  expect(res.body.message).toMatch(reason);
  const polled = await poll(session.merchant.apiKey, session.session_id);
  expect(polled.body.data).toMatchObject({ status: "PENDING", assurance: null, receipt_id: null });
  expect(await logRow(session.session_id)).toStrictEqual(before);
}

describe("POST …/digital-id/request", () => {
  it("hands out the digital.requests array for the Digital Credentials API, asking only for the age", async () => {
    const { requests } = await sessionWithRequest(18);
    expect(requests.map((r) => r.protocol)).toStrictEqual(["org-iso-mdoc", "openid4vp-v1-unsigned"]);
    const text = JSON.stringify(requests);
    expect(text).toContain("age_over_18");
    expect(text).not.toMatch(/family_name|birth_date|portrait/);
  });

  it("answers 404 for a wrong nonce, and 409 once the session is answered", async () => {
    const session = await sessionWithRequest(18);
    expectError(await requestRoute(session.session_id, "x".repeat(43)), 404, "NOT_FOUND");
    const done = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN }),
    );
    expect(done.status).toBe(200);
    expectError(await requestRoute(session.session_id, session.nonce), 409, "SESSION_NOT_PENDING");
  });

  it("answers 403 on a deployment without trust anchors (the way is not offered)", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey, 18);
    const withoutAnchors = { ...env, DIGITAL_ID_TRUST_ANCHORS: undefined } as unknown as Env;
    const request = new Request(`https://avs.test/api/age-verification/session/${opened.session_id}/digital-id/request`, {
      method: "POST",
      headers: { "x-session-nonce": opened.nonce },
    });
    const res = await createApp().fetch(request, withoutAnchors, createExecutionContext());
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe("ASSURANCE_NOT_ACCEPTED");
  });
});

describe("POST …/digital-id/response: outcomes", () => {
  it("age_over_18: false against 18 is DENIED (UNDER_AGE) with DIGITAL_ID_VERIFIED, DEVICE_KEY and a signed receipt", async () => {
    const session = await sessionWithRequest(18);
    const res = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: false }), { origin: ORIGIN }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "DENIED",
      above_age_required: false,
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: "DEVICE_KEY",
      denial_reason: "UNDER_AGE",
    });
    expect(res.body.data.receipt_id).toMatch(/^rcpt_/);
    const { claims } = await verifyReceipt(res.body.data.receipt);
    expect(claims).toMatchObject({
      outcome: "DENIED",
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: "DEVICE_KEY",
      denial_reason: "UNDER_AGE",
    });
    expect(await logRow(session.session_id)).toMatchObject({
      status: "DENIED",
      assurance: "DIGITAL_ID_VERIFIED",
      holderBinding: "DEVICE_KEY",
      denialReason: "UNDER_AGE",
    });
  });

  it("age_over_21: true against 19 is APPROVED", async () => {
    const session = await sessionWithRequest(19);
    const res = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: true, 21: true }), { origin: ORIGIN }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: "APPROVED",
      above_age_required: true,
      assurance: "DIGITAL_ID_VERIFIED",
      holder_binding: "DEVICE_KEY",
      denial_reason: null,
    });
    expect((await poll(session.merchant.apiKey, session.session_id)).body.data).toStrictEqual(res.body.data);
  });

  it("age_over_18: true alone against 21 is 422 DIGITAL_ID_INSUFFICIENT", async () => {
    const session = await sessionWithRequest(21);
    await expectRefused(
      session,
      await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN, disclose: ["age_over_18"] }),
      "DIGITAL_ID_INSUFFICIENT",
      /at least 21/,
    );
  });

  it("the approval's callback arrives signed, with assurance DIGITAL_ID_VERIFIED", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response(null, { status: 204 }));
    const session = await sessionWithRequest(18);
    const res = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN }),
    );
    expect(res.status).toBe(200);
    const [event] = await (await dbOfSession(session.session_id))
      .select()
      .from(callbackEvents)
      .where(eq(callbackEvents.sessionId, session.session_id));
    await vi.waitFor(async () => expect(await eventState(event!.id)).toBe("delivered"));
    const [, init] = spy.mock.calls.find(([input]) => String(input) === HOOK)!;
    const headers = Object.fromEntries(new Headers(init!.headers));
    const payload = new Webhook(session.merchant.signingSecret).verify(String(init!.body), headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe("age_verification.session.approved");
    expect(payload.data).toStrictEqual(res.body.data);
    expect(payload.data).toMatchObject({ assurance: "DIGITAL_ID_VERIFIED", holder_binding: "DEVICE_KEY" });
  });

  it("a test session (opened with a test key) can be answered by the wallet too", async () => {
    const session = await sessionWithRequest(18, "test");
    const res = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", livemode: false, assurance: "DIGITAL_ID_VERIFIED" });
  });

  it("an SD-JWT VC through OpenID4VP approves", async () => {
    const session = await sessionWithRequest(18);
    const credential = await issueSdJwtVc({ signer: await signerUnderTestRoot(), ages: { 18: true } });
    const res = await responseRoute(session.session_id, session.nonce, await answer(session.requests, credential, { origin: ORIGIN }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", assurance: "DIGITAL_ID_VERIFIED" });
  });
});

describe("POST …/digital-id/response: each failed check leaves the session pending", () => {
  it("an answer made for another origin", async () => {
    const session = await sessionWithRequest(18);
    await expectRefused(
      session,
      await answer(session.requests, await mdl({ 18: true }), { origin: "https://evil.example" }),
      "DIGITAL_ID_INVALID",
      /does not open with this request/,
    );
  });

  it("an answer to an earlier request, after a new one was made (another request's nonce and key)", async () => {
    const session = await sessionWithRequest(18);
    const earlier = session.requests;
    expect((await requestRoute(session.session_id, session.nonce)).status).toBe(200);
    await expectRefused(
      session,
      await answer(earlier, await mdl({ 18: true }), { origin: ORIGIN }),
      "DIGITAL_ID_INVALID",
      /does not open with this request/,
    );
    // The same through OpenID4VP: the JWE is for the earlier request's key.
    await expectRefused(
      session,
      await answer(earlier, await mdl({ 18: true }), { origin: ORIGIN, protocol: "openid4vp-v1-unsigned" }),
      "DIGITAL_ID_INVALID",
      /did not verify/,
    );
  });

  it("an expired MSO", async () => {
    const session = await sessionWithRequest(18);
    const credential = await mdl({ 18: true }, { validFrom: new Date(Date.now() - 30 * DAY), validUntil: new Date(Date.now() - DAY) });
    await expectRefused(
      session,
      await answer(session.requests, credential, { origin: ORIGIN }),
      "DIGITAL_ID_INVALID",
      /has expired \(MSO validUntil\)/,
    );
  });

  it("an MSO not valid yet", async () => {
    const session = await sessionWithRequest(18);
    const credential = await mdl({ 18: true }, { validFrom: new Date(Date.now() + DAY), validUntil: new Date(Date.now() + 30 * DAY) });
    await expectRefused(
      session,
      await answer(session.requests, credential, { origin: ORIGIN }),
      "DIGITAL_ID_INVALID",
      /not valid yet \(MSO validFrom\)/,
    );
  });

  it("a changed element value (its digest no longer matches)", async () => {
    const session = await sessionWithRequest(18);
    const response = await answer(session.requests, await mdl({ 18: false }), {
      origin: ORIGIN,
      tamper: { element: "age_over_18", value: true },
    });
    await expectRefused(session, response, "DIGITAL_ID_INVALID", /does not match its signed digest/);
  });

  it("an issuer outside the trust anchors", async () => {
    const session = await sessionWithRequest(18);
    const credential = await mdl({ 18: true }, { signer: await documentSigner(await makeIssuer({ subject: "Another IACA", ca: true })) });
    await expectRefused(
      session,
      await answer(session.requests, credential, { origin: ORIGIN }),
      "DIGITAL_ID_INVALID",
      /does not chain to a trusted issuer/,
    );
  });

  it("a broken chain (a look-alike intermediate)", async () => {
    const session = await sessionWithRequest(18);
    const testRoot = await root();
    const intermediate = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: testRoot, ca: true });
    const lookAlike = await makeIssuer({ subject: "TEST ONLY intermediate", issuer: testRoot, ca: true });
    const credential = await mdl({ 18: true }, { signer: await documentSigner(intermediate), chainAfterSigner: [lookAlike.certificate] });
    await expectRefused(session, await answer(session.requests, credential, { origin: ORIGIN }), "DIGITAL_ID_INVALID", /chain is broken/);
  });

  it("a device signature by another key than the credential's", async () => {
    const session = await sessionWithRequest(18);
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const response = await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN, deviceSigningKey: other.privateKey });
    await expectRefused(session, response, "DIGITAL_ID_INVALID", /device signature does not cover this request/);
  });

  it("a captured answer for another verifier, its signed bytes in the device signature's payload slot and re-sealed to this request (both protocols)", async () => {
    const session = await sessionWithRequest(18);
    const credential = await mdl({ 18: true });
    for (const protocol of ["org-iso-mdoc", "openid4vp-v1-unsigned"] as const) {
      const forged = await answer(session.requests, credential, {
        origin: ORIGIN,
        protocol,
        deviceSignedForOrigin: "https://other-verifier.example",
        embedDevicePayload: true,
      });
      await expectRefused(session, forged, "DIGITAL_ID_INVALID", /payload must be detached/);
    }
  });

  it("an SD-JWT VC with a key-binding JWT by another key", async () => {
    const session = await sessionWithRequest(18);
    const credential = await issueSdJwtVc({ signer: await signerUnderTestRoot(), ages: { 18: true } });
    const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    await expectRefused(
      session,
      await answer(session.requests, credential, { origin: ORIGIN, keyBinding: { key: other.privateKey } }),
      "DIGITAL_ID_INVALID",
      /key-binding JWT's signature is wrong/,
    );
  });

  it("a credential revoked in its issuer's status list: the session stays PENDING and the failure counts; valid, it approves", async () => {
    const session = await sessionWithRequest(18);
    const uri = statusUri();
    const signer = await makeIssuer({ subject: "TEST ONLY status list signer", issuer: await root(), ca: false });
    const list = await issueStatusList({ format: "cwt", signer, uri, statuses: { 3: STATUS.INVALID }, ttl: 300 });
    const requests = serveStatusLists(new Map([[uri, () => tokenResponse(list)]]));
    const revoked = await answer(session.requests, await mdl({ 18: true }, { status: { idx: 3, uri } }), { origin: ORIGIN });
    await expectRefused(session, revoked, "DIGITAL_ID_INVALID", /has been revoked/);
    expect(await runInDurableObject(sessionObject(session.session_id), (_instance, state) => state.storage.get("digitalIdFailures"))).toBe(
      1,
    );
    const valid = await answer(session.requests, await mdl({ 18: true }, { status: { idx: 4, uri } }), { origin: ORIGIN });
    const res = await responseRoute(session.session_id, session.nonce, valid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: "APPROVED", assurance: "DIGITAL_ID_VERIFIED" });
    // The whole list, fetched once (the second answer used the kept copy): nothing names the person or the session.
    expect(requests.map((request) => request.url)).toStrictEqual([uri]);
  });

  it("a replay of an answered response is 422, and the session keeps its outcome", async () => {
    const session = await sessionWithRequest(18);
    const response = await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN });
    const first = await responseRoute(session.session_id, session.nonce, response);
    expect(first.status).toBe(200);
    const replay = await responseRoute(session.session_id, session.nonce, response);
    expectError(replay, 422, "DIGITAL_ID_INVALID");
    expect((await poll(session.merchant.apiKey, session.session_id)).body.data).toStrictEqual(first.body.data);
  });

  it("two answers at once to one request resolve the session once", async () => {
    const session = await sessionWithRequest(18);
    const response = await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN });
    const both = await Promise.all([
      responseRoute(session.session_id, session.nonce, response),
      responseRoute(session.session_id, session.nonce, response),
    ]);
    expect(both.map((r) => r.status).sort()).toStrictEqual([200, 422]);
    expect(
      await (await dbOfSession(session.session_id)).select().from(callbackEvents).where(eq(callbackEvents.sessionId, session.session_id)),
    ).toHaveLength(1);
  });

  it("an answer that verified while a new request replaced its own does not resolve the session", async () => {
    const session = await sessionWithRequest(18);
    const response = await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN });
    type Calls = {
      digitalIdResponse(nonce: string, body: unknown): Promise<{ ok: boolean; error?: string }>;
      digitalIdRequest(nonce: string): Promise<{ ok: boolean }>;
    };
    const [answered, replaced] = await runInDurableObject(sessionObject(session.session_id), async (instance) => {
      const calls = instance as unknown as Calls;
      // The answer's checks take many awaits (crypto); the new request is stored meanwhile.
      return Promise.all([calls.digitalIdResponse(session.nonce, response), calls.digitalIdRequest(session.nonce)]);
    });
    expect(replaced.ok).toBe(true);
    expect(answered).toMatchObject({ ok: false, error: "DIGITAL_ID_INVALID" });
    expect((await poll(session.merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
  });

  it("after five failed answers, the sixth answer and a new request are 429 with Retry-After", async () => {
    const session = await sessionWithRequest(18);
    const wrongOrigin = await answer(session.requests, await mdl({ 18: true }), { origin: "https://evil.example" });
    for (let failure = 1; failure <= 5; failure++)
      expectError(await responseRoute(session.session_id, session.nonce, wrongOrigin), 422, "DIGITAL_ID_INVALID");
    const good = await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN });
    const sixth = await responseRoute(session.session_id, session.nonce, good);
    expectError(sixth, 429, "RATE_LIMITED");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expectError(await requestRoute(session.session_id, session.nonce), 429, "RATE_LIMITED");
    expect((await poll(session.merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
  });

  /** Base64url of a JSON value, for hand-made JOSE parts. */
  const jsonPart = (value: unknown) =>
    toBase64(new TextEncoder().encode(JSON.stringify(value)))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  const openId4Vp = (requests: DigitalRequest[]) => requests.find((request) => request.protocol === "openid4vp-v1-unsigned")!;
  const unreadable: [string, (requests: DigitalRequest[]) => Promise<DigitalResponse>][] = [
    ["an Annex C response of length 4n+1 (not base64url)", async () => ({ protocol: "org-iso-mdoc", data: { response: "AAAAA" } })],
    [
      "a JWE whose protected header is JSON null",
      async () => ({
        protocol: "openid4vp-v1-unsigned",
        data: { response: `${jsonPart(null)}..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA` },
      }),
    ],
    ["an mdoc vp_token entry of length 4n+1", async (requests) => sealOpenId4Vp(openId4Vp(requests), { vp_token: { mdl: ["AAAAA"] } })],
    [
      'an SD-JWT VC whose x5c entry is "A"',
      async (requests) =>
        sealOpenId4Vp(openId4Vp(requests), {
          vp_token: {
            sd_jwt_vc: [
              `${jsonPart({ alg: "ES256", typ: "dc+sd-jwt", x5c: ["A"] })}.${jsonPart({})}.AAAA~${jsonPart({ alg: "ES256", typ: "kb+jwt" })}.${jsonPart({})}.AAAA`,
            ],
          },
        }),
    ],
  ];
  for (const [name, make] of unreadable) {
    it(`${name} is 422 DIGITAL_ID_INVALID and counted: after five, a genuine answer is 429`, async () => {
      const session = await sessionWithRequest(18);
      const before = await logRow(session.session_id);
      for (let failure = 1; failure <= 5; failure++) {
        const res = await responseRoute(session.session_id, session.nonce, await make(session.requests));
        expectError(res, 422, "DIGITAL_ID_INVALID");
        expect(res.body.message).not.toMatch(/TypeError|atob|Cannot read|undefined|null \(/);
      }
      expectError(
        await responseRoute(session.session_id, session.nonce, await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN })),
        429,
        "RATE_LIMITED",
      );
      expect((await poll(session.merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
      expect(await logRow(session.session_id)).toStrictEqual(before);
    });
  }

  it("a body that is not {protocol, data} of an offered protocol is 422 VALIDATION_FAILED and not counted", async () => {
    const session = await sessionWithRequest(18);
    for (let attempt = 0; attempt < 6; attempt++) {
      expectError(
        await responseRoute(session.session_id, session.nonce, { protocol: "openid4vp-v1-signed", data: {} }),
        422,
        "VALIDATION_FAILED",
      );
    }
    const res = await responseRoute(
      session.session_id,
      session.nonce,
      await answer(session.requests, await mdl({ 18: true }), { origin: ORIGIN }),
    );
    expect(res.status).toBe(200);
  });
});

describe("the merchant's accepted_assurance", () => {
  it("a session that accepts only KYC_VERIFIED answers 403 ASSURANCE_NOT_ACCEPTED on both routes", async () => {
    const merchant = await seedMerchant();
    const opened = await openSession(merchant.apiKey, 18, ["KYC_VERIFIED"]);
    expectError(await requestRoute(opened.session_id, opened.nonce), 403, "ASSURANCE_NOT_ACCEPTED");
    expectError(
      await responseRoute(opened.session_id, opened.nonce, { protocol: "org-iso-mdoc", data: { response: "AAAA" } }),
      403,
      "ASSURANCE_NOT_ACCEPTED",
    );
  });

  it("a session that accepts only DIGITAL_ID_VERIFIED refuses the account's /complete with 403", async () => {
    const merchant = await seedMerchant();
    const user = await seedEndUser(birthdayToday(30));
    const opened = await openSession(merchant.apiKey, 18, ["DIGITAL_ID_VERIFIED"]);
    expectError(await complete(user.token, opened.session_id, opened.nonce), 403, "ASSURANCE_NOT_ACCEPTED");
    expect((await requestRoute(opened.session_id, opened.nonce)).status).toBe(200);
  });
});

describe("privacy: nothing of the credential is kept", () => {
  it("after the answer, neither the session's storage, nor D1, nor the logs hold an element, the device key or a certificate", async () => {
    const logged: string[] = [];
    for (const level of ["log", "warn", "error", "info", "debug"] as const)
      vi.spyOn(console, level).mockImplementation((...args) => void logged.push(args.map(String).join(" ")));
    const session = await sessionWithRequest(18);
    const signer = await signerUnderTestRoot();
    const credential = await mdl({ 18: true }, { signer });
    const response = await answer(session.requests, credential, { origin: ORIGIN, disclose: ["age_over_18", "family_name", "birth_date"] });
    const res = await responseRoute(session.session_id, session.nonce, response);
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const deviceKey = (await crypto.subtle.exportKey("jwk", credential.deviceKey.publicKey)) as JsonWebKey;
    const forbidden = [
      "Doe",
      "2001-02-03",
      "family_name",
      "birth_date",
      "age_over",
      deviceKey.x!,
      deviceKey.y!,
      toBase64(signer.certificate).slice(20, 80),
      String(response.data.response).slice(20, 80),
    ];
    const stored = await runInDurableObject(sessionObject(session.session_id), async (_instance, state) => [
      ...(await state.storage.list()).entries(),
    ]);
    // The request's private half is dropped with the outcome: only the state and its outbox remain.
    expect(stored.map(([key]) => key).filter((key) => key.startsWith("digitalId"))).toStrictEqual([]);
    const rows = JSON.stringify([
      await logRow(session.session_id),
      await (await dbOfSession(session.session_id)).select().from(callbackEvents).where(eq(callbackEvents.sessionId, session.session_id)),
    ]);
    for (const text of [JSON.stringify(stored), rows, logged.join("\n")]) {
      for (const secret of forbidden) expect(text).not.toContain(secret);
    }
  });
});
