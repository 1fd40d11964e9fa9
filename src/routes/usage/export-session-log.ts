// GET /api/usage/export.csv: every session matching the filters, streamed as CSV.
import { exportFileName, exportSessionLog, resolveRange } from "../../domain/usage";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { exportSessionLogDoc } from "./docs";
import { ExportQuery } from "./queries";

const spec = { method: "get", path: "/export.csv", limits: {} } as const satisfies RouteSpec;

export const exportSessionLogRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, exportSessionLogDoc())),
    requireUser,
    requireBusiness,
    queryParams(ExportQuery),
    function exportCsv(c) {
      const query = c.req.valid("query");
      const filter = { ...resolveRange(query), status: query.status, keyId: query.key_id, mode: query.mode };
      return new Response(exportSessionLog(c.var.ctx, c.var.user.id, filter), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${exportFileName(filter)}"`,
          "cache-control": "no-store",
        },
      });
    },
  ),
} satisfies NamedRoute;
