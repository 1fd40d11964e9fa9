// GET /api/usage/summary: counts per status across all keys.
import { usageSummary } from "../../domain/usage";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { usageSummaryDoc } from "./docs";
import { countedRange, RangeQuery } from "./queries";

const spec = { method: "get", path: "/summary", limits: {} } as const satisfies RouteSpec;

export const usageSummaryRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, usageSummaryDoc())),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async function countAll(c) {
      return ok(c, await usageSummary(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query"))));
    },
  ),
} satisfies NamedRoute;
