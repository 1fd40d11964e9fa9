// API keys area (CONTRACT §4): verified BUSINESS accounts manage their merchant keys.
import { Hono } from "hono";
import * as z from "zod";
import { ApiKeyRecord, createApiKey, listApiKeys, MAX_ACTIVE_KEYS, revokeApiKey } from "../domain/keys";
import { UpdateKeyInput, updateAllowedOrigins, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS, RotateInput, rotateSigningSecret, sendTestCallback, TestCallbackInput, TestCallbackResult } from "../domain/merchant-callbacks";
import { KEY_MODES } from "../db/schema";
import type { AppEnv } from "../http/app-env";
import { CALLBACK_TOOL_LIMIT, enforceLimit } from "../http/rate-limit";
import { describe, type Responses } from "../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../http/require-user";
import { ok } from "../http/respond";
import { jsonBody } from "../http/validate";

const tag = "API keys";
const CreateKeyInput = z.object({
  name: z.string().trim().min(1).max(64),
  mode: z
    .enum(KEY_MODES)
    .default("live")
    .describe("live (default): real checks, svc_sk_live_…; test: svc_sk_test_…, sessions livemode false, answered without an identity check."),
});
const CreatedKey = z.object({
  key: ApiKeyRecord,
  apiKey: z.string().describe("svc_sk_live_… or svc_sk_test_…: shown this once; only its hash is stored."),
  signingSecret: z.string().describe("whsec_…: shown this once; signs this key's callbacks."),
});
const notFoundDoc = { description: "No such key on this account", codes: ["NOT_FOUND"] } as const;
const forbidden = { 403: { description: "Not a verified business account", codes: ["BUSINESS_ACCOUNT_REQUIRED", "EMAIL_NOT_VERIFIED"] } } satisfies Responses;

export const keyRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Create a key: the API key and signing secret are shown this once",
      responses: { 201: { description: "Created", data: CreatedKey }, ...forbidden, 409: { description: `${MAX_ACTIVE_KEYS} active keys already`, codes: ["KEY_LIMIT_REACHED"] } },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(CreateKeyInput),
    async (c) => {
      const { name, mode } = c.req.valid("json");
      return ok(c, await createApiKey(c.var.ctx, c.var.user.id, name, mode), 201);
    },
  )
  .get(
    "/",
    describe(OPENAPI_METADATA && { tag, summary: "The account's keys, newest first, revoked ones included; never a secret", responses: { 200: { description: "Keys", data: z.object({ keys: z.array(ApiKeyRecord) }) }, ...forbidden } }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async (c) => ok(c, { keys: await listApiKeys(c.var.ctx, c.var.user.id) }),
  )
  .patch(
    "/:id",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Update a key's allowed callback origins",
      description:
        "When a key carries allowed origins, a session it opens with a callback_url on any other origin is 422 CALLBACK_ORIGIN_NOT_ALLOWED, " +
        "so a leaked key cannot point callbacks at an arbitrary host. Origins are normalised (lower-case host, default port dropped) and de-duplicated.",
      responses: { 200: { description: "Updated", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: notFoundDoc },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(UpdateKeyInput),
    async (c) => ok(c, { key: await updateAllowedOrigins(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json")) }),
  )
  .post(
    "/:id/rotate-signing-secret",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Rotate the key's signing secret: the new one is shown this once",
      description:
        `For the grace period (graceHours, default ${DEFAULT_GRACE_HOURS}, at most ${MAX_GRACE_HOURS}) every callback carries two signatures, ` +
        "`v1,<new> v1,<old>`, so the receiver can switch to the new secret at any moment inside it; then only the new one signs. " +
        "A second rotation inside the window ends the oldest secret. Both secrets are stored encrypted; the listing shows when the old one stops.",
      responses: {
        200: { description: "Rotated", data: CreatedKey.omit({ apiKey: true }) },
        ...forbidden,
        404: notFoundDoc,
        409: { description: "Rotated by a concurrent request", codes: ["ROTATION_CONFLICT"] },
      },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(RotateInput),
    async (c) => ok(c, await rotateSigningSecret(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").graceHours)),
  )
  .post(
    "/:id/test-callback",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Send a signed age_verification.test event to a URL and report the receiver's answer",
      description:
        "Signed like every callback (both signatures during a rotation's grace). Sent once, now, never retried; nothing is written to the usage or callback log. " +
        `The url follows the callback_url rules. Limited to ${CALLBACK_TOOL_LIMIT} test events and redeliveries per account per minute.`,
      responses: {
        200: { description: "The receiver's answer (a failure to reach it is an answer too)", data: TestCallbackResult },
        ...forbidden,
        404: notFoundDoc,
        429: { description: "Too many test events and redeliveries from this account this minute", codes: ["RATE_LIMITED"] },
      },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(TestCallbackInput),
    async (c) => {
      const admit = () => enforceLimit(c.env.CALLBACK_LIMITER, `callback-tools:${c.var.user.id}`);
      return ok(c, await sendTestCallback(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").url, admit));
    },
  )
  .delete(
    "/:id",
    describe(OPENAPI_METADATA && {
      tag,
      summary: "Revoke a key: it stops authenticating on the very next request",
      responses: { 200: { description: "Revoked", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: { description: "No such key on this account", codes: ["NOT_FOUND"] } },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async (c) => ok(c, { key: await revokeApiKey(c.var.ctx, c.var.user.id, c.req.param("id")) }),
  );
