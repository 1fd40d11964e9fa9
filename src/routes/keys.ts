// API keys area (CONTRACT §4): verified BUSINESS accounts manage their merchant keys.
import { Hono } from "hono";
import * as z from "zod";
import { ApiKeyRecord, createApiKey, listApiKeys, MAX_ACTIVE_KEYS, revokeApiKey } from "../domain/api-keys";
import { KEY_MODES } from "../db/schema";
import type { AppEnv } from "../http/app-env";
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
const forbidden = { 403: { description: "Not a verified business account", codes: ["BUSINESS_ACCOUNT_REQUIRED", "EMAIL_NOT_VERIFIED"] } } satisfies Responses;

export const keyRoutes = new Hono<AppEnv>()
  .post(
    "/",
    describe({
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
    describe({ tag, summary: "The account's keys, newest first, revoked ones included; never a secret", responses: { 200: { description: "Keys", data: z.object({ keys: z.array(ApiKeyRecord) }) }, ...forbidden } }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async (c) => ok(c, { keys: await listApiKeys(c.var.ctx, c.var.user.id) }),
  )
  .delete(
    "/:id",
    describe({
      tag,
      summary: "Revoke a key: it stops authenticating on the very next request",
      responses: { 200: { description: "Revoked", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: { description: "No such key on this account", codes: ["NOT_FOUND"] } },
    }),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async (c) => ok(c, { key: await revokeApiKey(c.var.ctx, c.var.user.id, c.req.param("id")) }),
  );
