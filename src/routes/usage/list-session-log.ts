// GET /api/usage/sessions: one page of the session log, newest first, cursor-paged.
import { listSessionLog, UsagePage } from "../../domain/usage";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { LogQuery } from "./queries";
import { BUSINESS_ONLY, RAW_LOG_ONLY } from "./export-session-log";

const spec = { method: "get", path: "/sessions", limits: {} } as const satisfies RouteSpec;

export const listSessionLogRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listSessionLogDoc())),
    requireUser,
    requireBusiness,
    queryParams(LogQuery),
    async function listSessions(c) {
      const page = await listSessionLog(c.var.ctx, c.var.user.id, c.req.valid("query"));
      return ok(c, page);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function listSessionLogDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "The session log, newest first, cursor-paged",
    description:
      "Keyset pagination on (created_at, id): sessions opened while you page never repeat or skip a row. " +
      "The window of the first page (from/to, `to` defaulting to now) stays fixed for its cursors. " +
      "A cursor edited, from another account or sent with other filters is 422. No end-user identity." +
      RAW_LOG_ONLY,
    responses: { 200: { description: "One page of the log.", data: UsagePage }, ...BUSINESS_ONLY },
  };
}
