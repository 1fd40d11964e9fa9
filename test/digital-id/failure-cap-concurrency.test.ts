// The five-failure cap on a session's digital-ID answers holds under concurrency (docs/limits.md, "Per
// session: digital-ID answers"): however many answers arrive at once, no more than five are verified; the
// others are 429 at once, the stored count ends at exactly the failures verified, and a genuine answer
// afterwards is 429 too. A try is reserved before the verifier runs, so timing cannot widen the cap.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DIGITAL_ID_FAILURES_KEY } from "../../src/session/digital-id-answer";
import { call, expectError } from "../helpers/http";
import { seedMerchant } from "../helpers/seed";
import { poll, sessionObject } from "../helpers/sessions";
import { MDL, answer, issueMdoc, issueSdJwtVc, type DigitalRequest, type Mdoc, type SdJwtVc } from "../wallet";
import { signerUnderTestRoot } from "./wallet-setup";

const ORIGIN = new URL(env.APP_URL).origin;
const AT_ONCE = 30;

const responseRoute = (sessionId: string, nonce: string, body: unknown) =>
  call("POST", `/api/age-verification/session/${sessionId}/digital-id/response`, { headers: { "x-session-nonce": nonce }, body });

async function sessionWithRequest() {
  const merchant = await seedMerchant("cap shop");
  const opened = await call("POST", "/api/age-verification/session", {
    apiKey: merchant.apiKey,
    body: { age_required: 18, callback_url: "https://merchant.example/hooks/age" },
  });
  expect(opened.status, opened.text).toBe(201);
  const { session_id, nonce } = opened.body.data as { session_id: string; nonce: string };
  const asked = await call("POST", `/api/age-verification/session/${session_id}/digital-id/request`, {
    headers: { "x-session-nonce": nonce },
  });
  expect(asked.status, asked.text).toBe(200);
  return { merchant, session_id, nonce, requests: asked.body.data.requests as DigitalRequest[] };
}

/** An answer whose device signature (or key-binding JWT) is made by another key than the credential's. */
async function deviceForged(requests: DigitalRequest[], credential: Mdoc | SdJwtVc) {
  const other = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
  return "docType" in credential
    ? answer(requests, credential, { origin: ORIGIN, deviceSigningKey: other.privateKey })
    : answer(requests, credential, { origin: ORIGIN, keyBinding: { key: other.privateKey } });
}

const storedFailures = (sessionId: string) =>
  runInDurableObject(sessionObject(sessionId), async (_instance, state) => state.storage.get<number>(DIGITAL_ID_FAILURES_KEY));

describe("the five-failure cap under concurrency", { timeout: 120_000 }, () => {
  for (const kind of ["mdoc (Annex C)", "SD-JWT VC (OpenID4VP)"] as const) {
    it(`${AT_ONCE} failing ${kind} answers at once: at most 5 verified, the rest 429, the count ends right, a genuine answer is then 429`, async () => {
      const session = await sessionWithRequest();
      const signer = await signerUnderTestRoot();
      const credential =
        kind === "mdoc (Annex C)"
          ? await issueMdoc({ kind: MDL, signer, ages: { 18: true } })
          : await issueSdJwtVc({ signer, ages: { 18: true } });
      // Signed by another device key: every other check runs (decryption, the issuer's chain and
      // signature, the digests) before the device signature fails, so each answer takes many awaits.
      const forged = await deviceForged(session.requests, credential);
      const answers = await Promise.all(Array.from({ length: AT_ONCE }, () => responseRoute(session.session_id, session.nonce, forged)));
      const verified = answers.filter((res) => res.status === 422);
      const limited = answers.filter((res) => res.status === 429);
      for (const res of verified) expectError(res, 422, "DIGITAL_ID_INVALID");
      for (const res of limited) expectError(res, 429, "RATE_LIMITED");
      expect(verified.length + limited.length).toBe(AT_ONCE);
      expect(verified.length).toBeGreaterThanOrEqual(1);
      expect(verified.length).toBeLessThanOrEqual(5);
      // Every answer that was verified failed, and each is counted once: none lost to a concurrent write.
      expect(await storedFailures(session.session_id)).toBe(verified.length);
      // Top up to five, one at a time, then a genuine answer is refused all the same.
      for (let failure = verified.length; failure < 5; failure++)
        expectError(await responseRoute(session.session_id, session.nonce, forged), 422, "DIGITAL_ID_INVALID");
      expect(await storedFailures(session.session_id)).toBe(5);
      const genuine = await answer(session.requests, credential, { origin: ORIGIN });
      const late = await responseRoute(session.session_id, session.nonce, genuine);
      expectError(late, 429, "RATE_LIMITED");
      expect(Number(late.headers.get("retry-after"))).toBeGreaterThan(1);
      expect((await poll(session.merchant.apiKey, session.session_id)).body.data.status).toBe("PENDING");
      expect(await storedFailures(session.session_id)).toBe(5);
    });
  }

  it("five answers that fail in the same step each count: the stored count is five, none lost to a concurrent write", async () => {
    const session = await sessionWithRequest();
    // Unreadable alike, so all five reach the failure's count at the same turn of the event loop.
    const unreadable = { protocol: "org-iso-mdoc", data: { response: "AAAA" } };
    type Calls = { digitalIdResponse(nonce: string, body: unknown): Promise<{ ok: boolean; error?: string }> };
    const results = await runInDurableObject(sessionObject(session.session_id), async (instance) => {
      const calls = instance as unknown as Calls;
      return Promise.all(Array.from({ length: 5 }, () => calls.digitalIdResponse(session.nonce, unreadable)));
    });
    expect(results.map((result) => result.error)).toStrictEqual(Array(5).fill("DIGITAL_ID_INVALID"));
    expect(await storedFailures(session.session_id)).toBe(5);
    expectError(await responseRoute(session.session_id, session.nonce, unreadable), 429, "RATE_LIMITED");
  });

  it("with one try left, two answers at once: one is verified, the other 429; the count ends at five", async () => {
    const session = await sessionWithRequest();
    const credential = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const forged = await deviceForged(session.requests, credential);
    for (let failure = 0; failure < 4; failure++)
      expectError(await responseRoute(session.session_id, session.nonce, forged), 422, "DIGITAL_ID_INVALID");
    const both = await Promise.all([
      responseRoute(session.session_id, session.nonce, forged),
      responseRoute(session.session_id, session.nonce, forged),
    ]);
    expect(both.map((res) => res.status).sort()).toStrictEqual([422, 429]);
    expect(await storedFailures(session.session_id)).toBe(5);
  });

  it("an answer refused only because others are still being verified is told to retry in a second; a success frees the held try without counting", async () => {
    const session = await sessionWithRequest();
    const credential = await issueMdoc({ kind: MDL, signer: await signerUnderTestRoot(), ages: { 18: true } });
    const forged = await deviceForged(session.requests, credential);
    const genuine = await answer(session.requests, credential, { origin: ORIGIN });
    for (let failure = 0; failure < 4; failure++)
      expectError(await responseRoute(session.session_id, session.nonce, forged), 422, "DIGITAL_ID_INVALID");
    type Result = { ok: boolean; error?: string; detail?: { retryAfter?: number } };
    type Calls = { digitalIdResponse(nonce: string, body: unknown): Promise<Result> };
    const [first, second] = await runInDurableObject(sessionObject(session.session_id), async (instance) => {
      const calls = instance as unknown as Calls;
      // The first holds the last try while its checks run (many awaits of crypto); the second arrives meanwhile.
      return Promise.all([calls.digitalIdResponse(session.nonce, genuine), calls.digitalIdResponse(session.nonce, genuine)]);
    });
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: false, error: "DIGITAL_ID_FAILURES_EXCEEDED", detail: { retryAfter: 1 } });
    expect(await storedFailures(session.session_id)).toBe(4);
  });
});
