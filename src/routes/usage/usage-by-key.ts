// GET /api/usage/by-key: counts per status for each key, revoked keys included.
import { usageByKey } from "../../domain/usage";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { usageByKeyDoc } from "./docs";
import { countedRange, RangeQuery } from "./queries";

const spec = { method: "get", path: "/by-key", limits: {} } as const satisfies RouteSpec;

export const usageByKeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, usageByKeyDoc())),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async function countByKey(c) {
      return ok(c, await usageByKey(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query"))));
    },
  ),
} satisfies NamedRoute;
