// POST /api/keys: a new merchant API key and its signing secret, shown this once.
import * as z from "../../lib/lazy-zod";
import { KEY_MODES } from "../../db/schema";
import { createApiKey, ApiKeyRecord, MAX_ACTIVE_KEYS } from "../../domain/keys";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

/** A created key with its secrets, shown this once; rotate-signing-secret.ts answers it without the API key. Built inside the prose, so none of it is in the Worker. */
export const createdKey = () =>
  z.object({
    key: ApiKeyRecord,
    apiKey: z.string().check(z.describe("svc_sk_live_… or svc_sk_test_…: shown this once; only its hash is stored.")),
    signingSecret: z.string().check(z.describe("whsec_…: shown this once; signs this key's callbacks.")),
  });
/** The 403 of every operation of this area: not a verified business account. */
export const forbidden = {
  403: { description: "Not a verified business account", codes: ["BUSINESS_ACCOUNT_REQUIRED", "EMAIL_NOT_VERIFIED"] },
} satisfies Responses;

const CreateKeyInput = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)),
  mode: z
    ._default(z.enum(KEY_MODES), "live")
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "live (default): real checks, svc_sk_live_…; test: svc_sk_test_…, sessions livemode false, answered without an identity check."
          : "",
      ),
    ),
});

const spec = { method: "post", path: "/", limits: {} } as const satisfies RouteSpec;

export const createKeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, createKeyDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(CreateKeyInput),
    async function createKey(c) {
      const { name, mode } = c.req.valid("json");
      return ok(c, await createApiKey(c.var.ctx, c.var.user.id, name, mode), 201);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function createKeyDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "Create a key: the API key and signing secret are shown this once",
    responses: {
      201: { description: "Created", data: createdKey() },
      ...forbidden,
      409: { description: `${MAX_ACTIVE_KEYS} active keys already`, codes: ["KEY_LIMIT_REACHED"] },
    },
  };
}
