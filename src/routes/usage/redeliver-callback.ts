// POST /api/usage/sessions/{id}/callbacks/redeliver: the session's latest callback event, sent again now.
import { redeliverLatestCallback } from "../../domain/merchant-callbacks";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { redeliverCallbackDoc } from "./docs";

const spec = { method: "post", path: "/sessions/:id/callbacks/redeliver", limits: { callbackTools: LIMITS.callbackToolsPerAccount } } as const satisfies RouteSpec;

export const redeliverCallbackRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, redeliverCallbackDoc())),
    requireUser,
    requireBusiness,
    async function redeliver(c) {
      // Counted by the domain once the event is found, before anything changes.
      const admit = () => countUse(c, spec.limits.callbackTools, c.var.user.id);
      return ok(c, await redeliverLatestCallback(c.var.ctx, c.var.user.id, c.req.param("id"), admit), 202);
    },
  ),
} satisfies NamedRoute;
