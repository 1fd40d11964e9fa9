// Verification area (CONTRACT §5): the merchant side with X-API-Key, the end-user side with Bearer.
import { Hono } from "hono";
import * as z from "zod";
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
import { approvalOptions } from "../domain/passkeys";
import { enforceLimit } from "../http/rate-limit";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { requireApiKey } from "../http/require-api-key";
import { requireUser, requireUserWithVerifiedDob } from "../http/require-user";
import { ok } from "../http/respond";
import { jsonBody, queryParams } from "../http/validate";
import { PolledSession, SessionRequest } from "../session/session-view";

const tag = "Verification";
const PasskeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string(),
  allowCredentials: z.array(z.object({ type: z.literal("public-key"), id: z.string() })),
  userVerification: z.literal("required"),
  timeout: z.int(),
});
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
    queryParams(NonceQuery),
    async (c) => {
      const request = await readSessionRequest(c.var.ctx, c.req.param("id"), c.req.valid("query").nonce);
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
        400: { description: "The passkey assertion did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
        403: {
          description: "No verified identity yet, or a consent without a passkey assertion from an account that has a passkey or for a session that requires one",
          codes: ["KYC_REQUIRED", "PASSKEY_REQUIRED"],
        },
        409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
        ...unknownSession,
      },
    }),
    requireUserWithVerifiedDob,
    jsonBody(CompleteInput),
    async (c) =>
      ok(
        c,
        await completeSession(c.var.ctx, { userId: c.var.user.id, dateOfBirth: c.var.verifiedDob, hasPasskey: c.var.hasPasskey }, c.req.param("id"), c.req.valid("json")),
      ),
  )
  .post(
    "/session/:id/passkey-options",
    describe({
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
    jsonBody(NonceQuery),
    async (c) => {
      const { nonce } = c.req.valid("json");
      // The session and nonce first (404, writing nothing); only a challenge that will be stored counts against the limit.
      await readSessionRequest(c.var.ctx, c.req.param("id"), nonce);
      await enforceLimit(c.env.ADDRESS_LIMITER, `passkey-options:${c.var.user.id}`);
      return ok(c, await approvalOptions(c.var.ctx, c.var.user.id, c.req.param("id"), nonce));
    },
  );

