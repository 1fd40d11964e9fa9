// The query strings of the usage reports: the window (from, to), the log's filters and paging, and the
// counts' live/test mode. Shared by the operations of this area, validated by their queryParams.
import * as z from "../../lib/lazy-zod";
import { KEY_MODES } from "../../db/schema";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, resolveRange } from "../../domain/usage";
import { idShape } from "../../lib/ids";
import { SESSION_STATUSES } from "../../session/session-status";

const rangeFields = {
  from: z
    .optional(z.string().check(z.maxLength(40)))
    .check(
      z.describe(OPENAPI_METADATA ? "ISO 8601 date (start of that UTC day) or date-time with a zone. Default: `to` minus 30 days." : ""),
    ),
  to: z
    .optional(z.string().check(z.maxLength(40)))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "ISO 8601 date (end of that UTC day) or date-time with a zone, inclusive. Default: now. At most 366 days after `from`."
          : "",
      ),
    ),
};

const logFilterFields = {
  status: z.optional(z.enum(SESSION_STATUSES)),
  mode: z
    .optional(z.enum(KEY_MODES))
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "live: only sessions opened with live keys; test: only those opened with test keys (as the counts' `mode`). Default: both."
          : "",
      ),
    ),
  key_id: z
    .optional(z.string().check(z.regex(idShape("key"), "Expected a key id (key_…).")))
    .check(z.describe(OPENAPI_METADATA ? "Only sessions opened with this key (revoked keys too)." : "")),
  ...rangeFields,
};

export const RangeQuery = z.object({
  ...rangeFields,
  mode: z
    ._default(z.enum(KEY_MODES), "live")
    .check(
      z.describe(
        OPENAPI_METADATA ? "live (default): sessions opened with live keys; test: those opened with test keys, counted apart." : "",
      ),
    ),
});

/** The window a count covers, and whether it counts live or test sessions. */
export const countedRange = (query: z.infer<typeof RangeQuery>) => ({ ...resolveRange(query), livemode: query.mode === "live" });

export const ExportQuery = z.object(logFilterFields);

export const LogQuery = z.object({
  ...logFilterFields,
  limit: z
    ._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE_SIZE)), DEFAULT_PAGE_SIZE)
    .check(z.describe(OPENAPI_METADATA ? `Page size, 1-${MAX_PAGE_SIZE}.` : "")),
  cursor: z
    .optional(z.string().check(z.minLength(1), z.maxLength(512)))
    .check(z.describe(OPENAPI_METADATA ? "`next_cursor` of the previous page, with the same filters." : "")),
});
