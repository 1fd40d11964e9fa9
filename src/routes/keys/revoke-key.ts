// DELETE /api/keys/{id}: revokes a key; it stops authenticating on the very next request.
import { revokeApiKey, ApiKeyRecord } from "../../domain/keys";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { forbidden } from "./create-key";

const spec = { method: "delete", path: "/:id", limits: {} } as const satisfies RouteSpec;

export const revokeKeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, revokeKeyDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async function revokeKey(c) {
      return ok(c, { key: await revokeApiKey(c.var.ctx, c.var.user.id, c.req.param("id")) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function revokeKeyDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "Revoke a key: it stops authenticating on the very next request",
    responses: {
      200: { description: "Revoked", data: z.object({ key: ApiKeyRecord }) },
      ...forbidden,
      404: { description: "No such key on this account", codes: ["NOT_FOUND"] },
    },
  };
}
