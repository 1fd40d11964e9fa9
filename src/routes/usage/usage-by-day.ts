// GET /api/usage/by-day: counts per status for each UTC day of the window.
import { usageByDay, UsageByDay } from "../../domain/usage";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { countedRange, RangeQuery } from "./queries";
import { BUSINESS_ONLY } from "./export-session-log";

/** The counts outlive the raw log (docs/capacity.md): one sentence shared by the three count operations (usage-by-key.ts, usage-summary.ts). */
export const COUNTS_BEYOND_THE_LOG =
  "Days older than the session log's retention (SESSION_LOG_RETENTION_DAYS, 45 by default) are counted from a daily rollup " +
  "the scheduled maintenance keeps, with the same answers; such a day is counted whole, even when `from` or `to` carries a time inside it.";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function usageByDayDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "Counts per status for each UTC day of the window",
    description:
      "Sessions counted by the UTC day of created_at, with the same window and counts as the summary. " +
      "Every day the window touches is listed, oldest first, days without sessions as zeros; the first " +
      "and last day count only the part inside the window. At most 367 days (a window spans at most 366). " +
      COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and one entry per UTC day.", data: UsageByDay }, ...BUSINESS_ONLY },
  };
}
