// GET /api/usage/export.csv: every session matching the filters, streamed as CSV.
import { exportFileName, exportSessionLog, resolveRange, CSV_COLUMNS } from "../../domain/usage";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { ExportQuery } from "./queries";

/** The 403 of every operation of this area: not a business account. */
export const BUSINESS_ONLY = { 403: { description: "Not a business account.", codes: ["BUSINESS_ACCOUNT_REQUIRED"] } } satisfies Responses;
/** The log and the CSV list sessions: they cover only the raw log's retention (shared with list-session-log.ts's prose). */
export const RAW_LOG_ONLY =
  " Lists only sessions still in the log: SESSION_LOG_RETENTION_DAYS (45 by default); older days are in the counts only.";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function exportSessionLogDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "Every session matching the filters, as CSV",
    description:
      `Streamed; not paged. Columns: ${CSV_COLUMNS.join(", ")}. RFC 4180 with CRLF line ends; text starting ` +
      "with = + - @ (or a tab or carriage return) is prefixed with ' so spreadsheets do not run it." +
      RAW_LOG_ONLY,
    responses: {
      200: { description: "CSV with a header row.", content: { type: "text/csv", schema: { type: "string" } } },
      ...BUSINESS_ONLY,
    },
  };
}
