// PATCH /api/keys/{id}: the origins a key's callback_url may point at.
import { updateAllowedOrigins, UpdateKeyInput } from "../../domain/merchant-callbacks";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { updateAllowedOriginsDoc } from "./docs";

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
