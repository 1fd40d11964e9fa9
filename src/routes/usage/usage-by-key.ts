// GET /api/usage/by-key: counts per status for each key, revoked keys included.
import { usageByKey, UsageByKey } from "../../domain/usage";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { countedRange, RangeQuery } from "./queries";
import { BUSINESS_ONLY } from "./export-session-log";
import { COUNTS_BEYOND_THE_LOG } from "./usage-by-day";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function usageByKeyDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "Counts per status for each key, revoked keys included",
    description: COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and one entry per key of the account.", data: UsageByKey }, ...BUSINESS_ONLY },
  };
}
