// The query strings of the usage reports: the window (from, to), the log's filters and paging, and the
// counts' live/test mode. Shared by the operations of this area, validated by their queryParams.
import * as z from "../../lib/lazy-zod";
import { KEY_MODES } from "../../db/schema";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, resolveRange } from "../../domain/usage";
import { idShape } from "../../lib/ids";
import { SESSION_STATUSES } from "../../session/session-status";

const rangeFields = {
  from: z
    .string()
    .max(40)
    .optional()
    .describe(OPENAPI_METADATA ? "ISO 8601 date (start of that UTC day) or date-time with a zone. Default: `to` minus 30 days." : ""),
  to: z
    .string()
    .max(40)
    .optional()
    .describe(
      OPENAPI_METADATA
        ? "ISO 8601 date (end of that UTC day) or date-time with a zone, inclusive. Default: now. At most 366 days after `from`."
        : "",
    ),
};

const logFilterFields = {
  status: z.enum(SESSION_STATUSES).optional(),
  mode: z
    .enum(KEY_MODES)
    .optional()
    .describe(
      OPENAPI_METADATA
        ? "live: only sessions opened with live keys; test: only those opened with test keys (as the counts' `mode`). Default: both."
        : "",
    ),
  key_id: z
    .string()
    .regex(idShape("key"), "Expected a key id (key_…).")
    .optional()
    .describe(OPENAPI_METADATA ? "Only sessions opened with this key (revoked keys too)." : ""),
  ...rangeFields,
};

export const RangeQuery = z.object({
  ...rangeFields,
  mode: z
    .enum(KEY_MODES)
    .default("live")
    .describe(OPENAPI_METADATA ? "live (default): sessions opened with live keys; test: those opened with test keys, counted apart." : ""),
});

/** The window a count covers, and whether it counts live or test sessions. */
export const countedRange = (query: z.infer<typeof RangeQuery>) => ({ ...resolveRange(query), livemode: query.mode === "live" });

export const ExportQuery = z.object(logFilterFields);

export const LogQuery = z.object({
  ...logFilterFields,
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(OPENAPI_METADATA ? `Page size, 1-${MAX_PAGE_SIZE}.` : ""),
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe(OPENAPI_METADATA ? "`next_cursor` of the previous page, with the same filters." : ""),
});
