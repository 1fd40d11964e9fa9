// DELETE /api/keys/{id}: revokes a key; it stops authenticating on the very next request.
import { revokeApiKey } from "../../domain/keys";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { revokeKeyDoc } from "./docs";

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
