// GET /api/usage/summary: counts per status across all keys.
import { usageSummary, UsageSummary } from "../../domain/usage";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { countedRange, RangeQuery } from "./queries";
import { BUSINESS_ONLY } from "./export-session-log";
import { COUNTS_BEYOND_THE_LOG } from "./usage-by-day";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function usageSummaryDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "Counts per status across all keys",
    description: COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and its totals.", data: UsageSummary }, ...BUSINESS_ONLY },
  };
}
