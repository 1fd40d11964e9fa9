// Verification area (CONTRACT §5): the merchant side with X-API-Key, the end-user side with Bearer.
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import * as z from "zod";
import { CompleteInput, completeSession, declineSession, NonceQuery, OpenedSession, openSession, OpenSessionInput, pollSession, readSessionRequest, answerTestSession, previewSession, TestOutcomeInput, loadAnswerer, idempotently, MAX_IDEMPOTENCY_KEY_LENGTH, parseIdempotencyKey, requestFingerprint } from "../domain/verification";
import { authenticateApiKey } from "../domain/keys";
import { notFound, unauthorized } from "../errors";
import { approvalOptions, PasskeyRequestOptions } from "../domain/passkeys";
import { enforceLimit } from "../http/rate-limit";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { requireApiKey } from "../http/require-api-key";
import { requireAccountToken, requireUser, requireUserReadingVerifiedDob } from "../http/require-user";
import { ok } from "../http/respond";
import { SessionNonceHeader, sessionNonce, sessionNonceHeader } from "../http/session-nonce";
import { jsonBody, queryParams } from "../http/validate";
import { HolderSessionRequest, PolledSession, SessionPreview } from "../session/session-view";

const tag = "Verification";
const unknownSession = { 404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] } } satisfies Responses;

/**
 * The nonce of the routes that need no account (preview, decline): X-Session-Nonce, or `?nonce=` as on
 * the 1.0.0 routes. A missing one is answered like a wrong one (404), so nothing tells an unknown
 * session from a wrong nonce.
 */
function firstScreenNonce(header: string | undefined, query: string | undefined): string {
  const nonce = header ?? query ?? "";
  if (nonce.length === 0 || nonce.length > 128) throw notFound("Session");
  return nonce;
}

export const verificationRoutes = new Hono<AppEnv>()
  .post(
    "/session",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Open a verification session (spec endpoint 4); server-side only",
      description:
        "Hand only session_id and nonce (or verification_url) to the browser. callback_url and return_url: absolute https, at most 2048 characters, no credentials, not a private, loopback or link-local IP literal (development also allows http://localhost and http://127.0.0.1). " +
        "A test key (svc_sk_test_…) opens a test session (livemode false). Every resolved session carries a receipt: a JWS verifiable with the keys at /.well-known/jwks.json (docs/receipts.md). " +
        "With Idempotency-Key, a retry with the same body within 24 hours answers the first response again (header Idempotent-Replayed: true) and opens nothing.",
      headers: z.object({
        "Idempotency-Key": z
          .string()
          .max(MAX_IDEMPOTENCY_KEY_LENGTH)
          .optional()
          .describe(
            `Up to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters, unique per request (a UUID): scoped to the API key that sends it (a test key's answer never comes back to a live key), kept 24 hours, the stored answer sealed. Same key and other body: 422 IDEMPOTENCY_KEY_REUSED; first request still running: 409 IDEMPOTENCY_IN_PROGRESS.`,
          ),
      }),
      responses: {
        201: { description: "Opened", data: OpenedSession },
        409: { description: "The first request with this Idempotency-Key is still in flight", codes: ["IDEMPOTENCY_IN_PROGRESS"] },
        422: { description: "Invalid body, or an Idempotency-Key reused with another body", codes: ["VALIDATION_FAILED", "IDEMPOTENCY_KEY_REUSED"] },
      },
    }),
    requireApiKey,
    jsonBody(OpenSessionInput),
    async (c) => {
      const input = c.req.valid("json");
      const key = parseIdempotencyKey(c.req.header("idempotency-key"));
      const open = async () => ({ status: 201, body: await openSession(c.var.ctx, c.var.apiKey, input) });
      if (key === undefined) return ok(c, (await open()).body, 201);
      // Costs two D1 round trips (claim, then store the answer), only when the header is sent.
      const answer = await idempotently(c.var.ctx, c.var.apiKey, key, await requestFingerprint(input), open);
      if (answer.replayed) c.header("Idempotent-Replayed", "true");
      return ok(c, answer.body, answer.status as 201);
    },
  )
  .get(
    "/session/:id",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Poll a session (spec endpoint 5): the fallback when a callback was missed",
      responses: { 200: { description: "The polled session", data: PolledSession }, ...unknownSession },
    }),
    requireApiKey,
    async (c) => ok(c, await pollSession(c.var.ctx, c.var.apiKey.userId, c.req.param("id"))),
  )
  .get(
    "/session/:id/preview",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "The first screen of the end user's app: who asks, the age, whether the link can still be answered",
      description:
        "Needs no account: the nonce (header X-Session-Nonce, or ?nonce=) proves the link. An unknown id and a wrong nonce get the same 404. A PENDING session past its expiry is expired first (as a poll does). " +
        "Never shows the merchant's reference or metadata; return_url and locale are the merchant's, when it gave them. Cheap by design (one read of the session's Durable Object, no database query), so it is not rate-limited: the 256-bit nonce cannot be guessed.",
      headers: SessionNonceHeader,
      responses: {
        200: { description: "The preview", data: SessionPreview },
        // No credential is needed here; an id of "." is resolved by URL rules onto the merchant's poll route.
        401: { description: "Only for an id that URL normalisation turns into another route", codes: ["UNAUTHORIZED"] },
        ...unknownSession,
      },
    }),
    queryParams(NonceQuery),
    async (c) => {
      const preview = await previewSession(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), c.req.valid("query").nonce));
      // The page's countdown runs on the server's clock (see /request).
      c.header("date", new Date().toUTCString());
      return ok(c, preview);
    },
  )
  .get(
    "/session/:id/request",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "What a session asks, for the end user's app (needs the nonce)",
      responses: { 200: { description: "The request", data: HolderSessionRequest }, ...unknownSession },
    }),
    requireUserReadingVerifiedDob,
    sessionNonceHeader,
    queryParams(NonceQuery),
    async (c) => {
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], c.req.valid("query").nonce, "nonce");
      const request = await readSessionRequest(c.var.ctx, c.req.param("id"), nonce, c.var.verifiedDob);
      // The page's countdown runs on the server's clock, not the phone's: Cloudflare's edge adds a Date
      // header, but local workerd does not, so the answer carries its own.
      c.header("date", new Date().toUTCString());
      return ok(c, request);
    },
  )
  .post(
    "/session/:id/decline",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Decline as the end user, without an account",
      description:
        "\"Not now\" from the first screen: the session becomes DENIED (assurance null, holder_binding null: no identity was checked) and the merchant's callback is sent. Needs only the nonce (header X-Session-Nonce, or ?nonce=); no account is involved or recorded, so no per-account limit applies (the 256-bit nonce cannot be guessed, and a session is declined at most once).",
      headers: SessionNonceHeader,
      responses: {
        200: { description: "Declined", data: PolledSession },
        409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
        ...unknownSession,
      },
    }),
    queryParams(NonceQuery),
    async (c) => ok(c, await declineSession(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), c.req.valid("query").nonce))),
  )
  .post(
    "/session/:id/test-outcome",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Test mode: answer a test session with a chosen outcome, without a browser or an identity check",
      description:
        "With a test key (X-API-Key svc_sk_test_…) for your own test sessions, or with the session's nonce in the body (the /verify page's test chooser, no account). " +
        "A live session, a live key, another account's session or a wrong nonce: 404. The callback and poll then carry the outcome with livemode false, holder_binding null and a receipt for APPROVED and DENIED.",
      security: "apiKey",
      responses: {
        200: { description: "Resolved", data: PolledSession },
        401: { description: "An X-API-Key that is not a valid key", codes: ["UNAUTHORIZED"] },
        409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
        404: { description: "No test session with this id for this key or nonce", codes: ["NOT_FOUND"] },
      },
    }),
    // The key, when one is sent, is checked before the body: a bad key is 401 whatever the body holds.
    createMiddleware<AppEnv>(async (c, next) => {
      const presented = c.req.header("x-api-key");
      if (presented !== undefined) {
        const key = await authenticateApiKey(c.var.ctx, presented);
        if (!key) throw unauthorized();
        c.set("apiKey", key);
      }
      await next();
    }),
    jsonBody(TestOutcomeInput),
    async (c) => {
      const key = c.req.header("x-api-key") === undefined ? null : c.var.apiKey;
      return ok(c, await answerTestSession(c.var.ctx, key, c.req.param("id"), c.req.valid("json")));
    },
  )
  .post(
    "/session/:id/complete",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
      responses: {
        200: { description: "Resolved", data: PolledSession },
        400: { description: "The passkey assertion did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
        403: {
          description: "No verified identity yet, or a consent without a passkey assertion from an account that has a passkey or for a session that requires one",
          codes: ["KYC_REQUIRED", "PASSKEY_REQUIRED"],
        },
        409: {
          description: "Already answered or expired; or the account's identity document already verifies another account (IDENTITY_ALREADY_VERIFIED)",
          codes: ["SESSION_NOT_PENDING", "IDENTITY_ALREADY_VERIFIED"],
        },
        ...unknownSession,
        429: {
          description:
            "The account answered too many requests (production: 10 an hour, 30 a day, every attempt counted); Retry-After says when the window ends.",
          codes: ["RATE_LIMITED"],
        },
      },
    }),
    requireAccountToken,
    sessionNonceHeader,
    jsonBody(CompleteInput),
    async (c) => {
      const { nonce: bodyNonce, ...answer } = c.req.valid("json");
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], bodyNonce, "nonce");
      // Validation first (400/422 count nothing), then one D1 batch: the account and its completion counters.
      const answerer = await loadAnswerer(c.var.ctx, c.var.accountClaims);
      c.set("accountChecked", true);
      return ok(c, await completeSession(c.var.ctx, answerer, c.req.param("id"), { ...answer, nonce }));
    },
  )
  .post(
    "/session/:id/passkey-options",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Options for navigator.credentials.get() to approve this session with a passkey",
      description:
        "The challenge is single use, valid 5 minutes and bound to this session (its id and nonce) and this account; send the resulting assertion with consent: true to /complete.",
      responses: {
        200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
        ...unknownSession,
        429: { description: "More than 10 option requests a minute for this account", codes: ["RATE_LIMITED"] },
      },
    }),
    requireUser,
    sessionNonceHeader,
    jsonBody(NonceQuery),
    async (c) => {
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], c.req.valid("json").nonce, "nonce");
      // The session and nonce first (404, writing nothing); only a challenge that will be stored counts against the limit.
      await readSessionRequest(c.var.ctx, c.req.param("id"), nonce);
      await enforceLimit(c.env.ADDRESS_LIMITER, `passkey-options:${c.var.user.id}`);
      return ok(c, await approvalOptions(c.var.ctx, c.var.user.id, c.req.param("id"), nonce));
    },
  );

