// Verification area (CONTRACT §5): the merchant side with X-API-Key, the end-user side with Bearer.
import { Hono } from "hono";
import * as z from "zod";
import {
  CompleteInput,
  completeSession,
  declineSession,
  previewSession,
  NonceQuery,
  OpenedSession,
  openSession,
  OpenSessionInput,
  pollSession,
  readSessionRequest,
} from "../domain/verification";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { requireApiKey } from "../http/require-api-key";
import { requireUser, requireUserWithVerifiedDob } from "../http/require-user";
import { ok } from "../http/respond";
import { jsonBody, queryParams } from "../http/validate";
import { SessionPreview } from "../session/preview-view";
import { PolledSession, SessionRequest } from "../session/session-view";

const tag = "Verification";
const unknownSession = { 404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] } } satisfies Responses;

// The end user's nonce travels in a header on the routes that need no account (CONTRACT §12); a missing
// one is answered like a wrong one (404), so nothing tells an unknown session from a wrong nonce.
// `?nonce=` is also read, as on the 1.0.0 routes, so a plain link or tool can use it.
const NONCE_HEADER = "x-session-nonce";
const OptionalNonceQuery = z.object({ nonce: z.string().max(128).optional() });
const sessionNonce = (c: { req: { header(name: string): string | undefined; query(name: string): string | undefined } }) =>
  (c.req.header(NONCE_HEADER) ?? c.req.query("nonce") ?? "").slice(0, 128);

export const verificationRoutes = new Hono<AppEnv>()
  .post(
    "/session",
    describe({
      tag,
      summary: "Open a verification session (spec endpoint 4); server-side only",
      description:
        "Hand only session_id and nonce to the browser. callback_url: absolute https, at most 2048 characters, no credentials, not a private, loopback or link-local IP literal (development also allows http://localhost and http://127.0.0.1).",
      responses: { 201: { description: "Opened", data: OpenedSession } },
    }),
    requireApiKey,
    jsonBody(OpenSessionInput),
    async (c) => ok(c, await openSession(c.var.ctx, c.var.apiKey, c.req.valid("json")), 201),
  )
  .get(
    "/session/:id",
    describe({
      tag,
      summary: "Poll a session (spec endpoint 5): the fallback when a callback was missed",
      responses: { 200: { description: "The polled session", data: PolledSession }, ...unknownSession },
    }),
    requireApiKey,
    async (c) => ok(c, await pollSession(c.var.ctx, c.var.apiKey.userId, c.req.param("id"))),
  )
  .get(
    "/session/:id/request",
    describe({
      tag,
      summary: "What a session asks, for the end user's app (needs the nonce)",
      responses: { 200: { description: "The request", data: SessionRequest }, ...unknownSession },
    }),
    requireUser,
    queryParams(NonceQuery),
    async (c) => {
      const request = await readSessionRequest(c.var.ctx, c.req.param("id"), c.req.valid("query").nonce);
      // The page's countdown runs on the server's clock, not the phone's: Cloudflare's edge adds a Date
      // header, but local workerd does not, so the answer carries its own.
      c.header("date", new Date().toUTCString());
      return ok(c, request);
    },
  )
  .get(
    "/session/:id/preview",
    describe({
      tag,
      summary: "The first screen of the end user's app: who asks, the age, whether the link can still be answered",
      description:
        "Needs no account: the nonce (header X-Session-Nonce) proves the link. Cheap by design (one read of the session's Durable Object, no database query), so it is not rate-limited: the 256-bit nonce cannot be guessed. return_url and locale are the merchant's, when it gave them.",
      responses: {
        200: { description: "The preview", data: SessionPreview },
        401: { description: "Never for this route itself: an id that is a dot segment (…/session/./preview) is resolved by URL parsing to the merchant's poll route", codes: ["UNAUTHORIZED"] },
        ...unknownSession,
      },
    }),
    queryParams(OptionalNonceQuery),
    async (c) => {
      const preview = await previewSession(c.var.ctx, c.req.param("id"), sessionNonce(c));
      c.header("date", new Date().toUTCString());
      return ok(c, preview);
    },
  )
  .post(
    "/session/:id/decline",
    describe({
      tag,
      summary: "Decline as the end user, without an account",
      description:
        "\"Not now\" from the first screen: the session becomes DENIED (assurance null: no identity was checked) and the merchant's callback is sent. Needs only the nonce (header X-Session-Nonce); no account is involved and nothing about the person is recorded.",
      responses: {
        200: { description: "Declined", data: PolledSession },
        409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
        ...unknownSession,
      },
    }),
    queryParams(OptionalNonceQuery),
    async (c) => ok(c, await declineSession(c.var.ctx, c.req.param("id"), sessionNonce(c))),
  )
  .post(
    "/session/:id/complete",
    describe({
      tag,
      summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
      responses: {
        200: { description: "Resolved", data: PolledSession },
        403: { description: "No verified identity yet", codes: ["KYC_REQUIRED"] },
        409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
        ...unknownSession,
      },
    }),
    requireUserWithVerifiedDob,
    jsonBody(CompleteInput),
    async (c) => ok(c, await completeSession(c.var.ctx, c.var.verifiedDob, c.req.param("id"), c.req.valid("json"))),
  );

