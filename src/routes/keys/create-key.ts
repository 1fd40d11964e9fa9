// POST /api/keys: a new merchant API key and its signing secret, shown this once.
import * as z from "../../lib/lazy-zod";
import { KEY_MODES } from "../../db/schema";
import { createApiKey } from "../../domain/keys";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { createKeyDoc } from "./docs";

const CreateKeyInput = z.object({
  name: z.string().trim().min(1).max(64),
  mode: z
    .enum(KEY_MODES)
    .default("live")
    .describe(OPENAPI_METADATA ? "live (default): real checks, svc_sk_live_…; test: svc_sk_test_…, sessions livemode false, answered without an identity check." : ""),
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
