// GET /api/usage/sessions/{id}/callbacks: the callback delivery log of one of the account's sessions.
import { listSessionCallbacks } from "../../domain/merchant-callbacks";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { listSessionCallbacksDoc } from "./docs";

const spec = { method: "get", path: "/sessions/:id/callbacks", limits: {} } as const satisfies RouteSpec;

export const listSessionCallbacksRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listSessionCallbacksDoc())),
    requireUser,
    requireBusiness,
    async function listCallbacks(c) {
      const events = await listSessionCallbacks(c.var.ctx.db, c.var.user.id, c.req.param("id"));
      return ok(c, { events });
    },
  ),
} satisfies NamedRoute;
