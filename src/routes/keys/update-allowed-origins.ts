// PATCH /api/keys/{id}: the origins a key's callback_url may point at.
import { updateAllowedOrigins, UpdateKeyInput } from "../../domain/merchant-callbacks";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { ApiKeyRecord } from "../../domain/keys";
import { forbidden } from "./create-key";
import { notFoundDoc } from "./rotate-signing-secret";

const spec = { method: "patch", path: "/:id", limits: {} } as const satisfies RouteSpec;

export const updateAllowedOriginsRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, updateAllowedOriginsDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(UpdateKeyInput),
    async function setAllowedOrigins(c) {
      return ok(c, { key: await updateAllowedOrigins(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json")) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function updateAllowedOriginsDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "Update a key's allowed callback origins",
    description:
      "When a key carries allowed origins, a session it opens with a callback_url on any other origin is 422 CALLBACK_ORIGIN_NOT_ALLOWED, " +
      "so a leaked key cannot point callbacks at an arbitrary host. Origins are normalised (lower-case host, default port dropped) and de-duplicated.",
    responses: { 200: { description: "Updated", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: notFoundDoc },
  };
}
