// GET /api/usage/by-day: counts per status for each UTC day of the window.
import { usageByDay } from "../../domain/usage";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { usageByDayDoc } from "./docs";
import { countedRange, RangeQuery } from "./queries";

const spec = { method: "get", path: "/by-day", limits: {} } as const satisfies RouteSpec;

export const usageByDayRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, usageByDayDoc())),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async function countByDay(c) {
      return ok(c, await usageByDay(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query"))));
    },
  ),
} satisfies NamedRoute;
