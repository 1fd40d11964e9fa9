// GET /api/usage/sessions: one page of the session log, newest first, cursor-paged.
import { listSessionLog } from "../../domain/usage";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { listSessionLogDoc } from "./docs";
import { LogQuery } from "./queries";

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
