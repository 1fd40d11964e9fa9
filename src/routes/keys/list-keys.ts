// GET /api/keys: the account's keys, newest first, revoked ones included; never a secret.
import { listApiKeys, ApiKeyRecord } from "../../domain/keys";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { forbidden } from "./create-key";

const spec = { method: "get", path: "/", limits: {} } as const satisfies RouteSpec;

export const listKeysRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listKeysDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async function listKeys(c) {
      return ok(c, { keys: await listApiKeys(c.var.ctx, c.var.user.id) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function listKeysDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "The account's keys, newest first, revoked ones included; never a secret",
    responses: { 200: { description: "Keys", data: z.object({ keys: z.array(ApiKeyRecord) }) }, ...forbidden },
  };
}
