// Verification area (CONTRACT §5): the merchant side with X-API-Key, the end-user side with Bearer.
import { Hono } from "hono";
import {
  CompleteInput,
  completeSession,
  NonceQuery,
  OpenedSession,
  openSession,
  OpenSessionInput,
  pollSession,
  readSessionRequest,
} from "../domain/verification";
import { countAccountUse } from "../domain/account-limits";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { requireApiKey } from "../http/require-api-key";
import { requireUser, requireUserWithVerifiedDob } from "../http/require-user";
import { ok } from "../http/respond";
import { sessionNonce, sessionNonceHeader } from "../http/session-nonce";
import { jsonBody, queryParams } from "../http/validate";
import { PolledSession, SessionRequest } from "../session/session-view";

const tag = "Verification";
const unknownSession = { 404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] } } satisfies Responses;

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
    sessionNonceHeader,
    queryParams(NonceQuery),
    async (c) => {
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], c.req.valid("query").nonce, "nonce");
      const request = await readSessionRequest(c.var.ctx, c.req.param("id"), nonce);
      // The page's countdown runs on the server's clock, not the phone's: Cloudflare's edge adds a Date
      // header, but local workerd does not, so the answer carries its own.
      c.header("date", new Date().toUTCString());
      return ok(c, request);
    },
  )
  .post(
    "/session/:id/complete",
    describe({
      tag,
      summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
      responses: {
        200: { description: "Resolved", data: PolledSession },
        403: { description: "No verified identity yet", codes: ["KYC_REQUIRED"] },
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
    requireUserWithVerifiedDob,
    sessionNonceHeader,
    jsonBody(CompleteInput),
    async (c) => {
      const { consent, nonce: bodyNonce } = c.req.valid("json");
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], bodyNonce, "nonce");
      await countAccountUse(c.var.ctx, "completion", c.var.user.id);
      return ok(c, await completeSession(c.var.ctx, c.var.verifiedDob, c.req.param("id"), { nonce, consent }));
    },
  );

