// Usage reporting (CONTRACT §8, tag Usage): the session log, its CSV export, counts per status, per
// key and per day, and the callback delivery log of one session.
// Business accounts only; every query is scoped to the signed-in account.
import { Hono } from "hono";
import * as z from "zod";
import { MAX_RETRY_AFTER_SECONDS, RETRY_SCHEDULE_SECONDS } from "../callbacks/retry-policy";
import { CallbackEventView, listSessionCallbacks, redeliverLatestCallback } from "../domain/merchant-callbacks";
import { CALLBACK_TOOL_LIMIT, enforceLimit } from "../http/rate-limit";
import { exportFileName, exportSessionLog, CSV_COLUMNS, DEFAULT_PAGE_SIZE, listSessionLog, MAX_PAGE_SIZE, UsagePage, resolveRange, UsageByDay, usageByDay, UsageByKey, UsageSummary, usageByKey, usageSummary } from "../domain/usage";
import { KEY_MODES } from "../db/schema";
import type { AppEnv } from "../http/app-env";
import { describe, type Responses } from "../http/openapi-meta";
import { requireBusiness, requireUser } from "../http/require-user";
import { ok } from "../http/respond";
import { queryParams } from "../http/validate";
import { idShape } from "../lib/ids";
import { formatWait } from "../lib/time";
import { SESSION_STATUSES } from "../session/session-status";

const rangeFields = {
  from: z
    .string()
    .max(40)
    .optional()
    .describe("ISO 8601 date (start of that UTC day) or date-time with a zone. Default: `to` minus 30 days."),
  to: z
    .string()
    .max(40)
    .optional()
    .describe("ISO 8601 date (end of that UTC day) or date-time with a zone, inclusive. Default: now. At most 366 days after `from`."),
};

const logFilterFields = {
  status: z.enum(SESSION_STATUSES).optional(),
  key_id: z
    .string()
    .regex(idShape("key"), "Expected a key id (key_…).")
    .optional()
    .describe("Only sessions opened with this key (revoked keys too)."),
  ...rangeFields,
};

const RangeQuery = z.object({
  ...rangeFields,
  mode: z
    .enum(KEY_MODES)
    .default("live")
    .describe("live (default): sessions opened with live keys; test: those opened with test keys, counted apart."),
});
const countedRange = (query: z.infer<typeof RangeQuery>) => ({ ...resolveRange(query), livemode: query.mode === "live" });
const ExportQuery = z.object(logFilterFields);
const LogQuery = z.object({
  ...logFilterFields,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).describe(`Page size, 1-${MAX_PAGE_SIZE}.`),
  cursor: z.string().min(1).max(512).optional().describe("`next_cursor` of the previous page, with the same filters."),
});

const SessionCallbacks = z.object({ events: z.array(CallbackEventView) });

const BUSINESS_ONLY = { 403: { description: "Not a business account.", codes: ["BUSINESS_ACCOUNT_REQUIRED"] } } satisfies Responses;

// Guards go on each route, not on `use()`, as in every area: the OpenAPI document reads each route's
// middleware for its security and responses.
export const usageRoutes = new Hono<AppEnv>()
  .get(
    "/sessions",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "The session log, newest first, cursor-paged",
      description:
        "Keyset pagination on (created_at, id): sessions opened while you page never repeat or skip a row. " +
        "The window of the first page (from/to, `to` defaulting to now) stays fixed for its cursors. " +
        "A cursor edited, from another account or sent with other filters is 422. No end-user identity.",
      responses: { 200: { description: "One page of the log.", data: UsagePage }, ...BUSINESS_ONLY },
    }),
    requireUser,
    requireBusiness,
    queryParams(LogQuery),
    async (c) => {
      const page = await listSessionLog(c.var.ctx, c.var.user.id, c.req.valid("query"));
      return ok(c, page);
    },
  )
  .get(
    "/export.csv",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Every session matching the filters, as CSV",
      description:
        `Streamed; not paged. Columns: ${CSV_COLUMNS.join(", ")}. RFC 4180 with CRLF line ends; text starting ` +
        "with = + - @ (or a tab or carriage return) is prefixed with ' so spreadsheets do not run it.",
      responses: {
        200: { description: "CSV with a header row.", content: { type: "text/csv", schema: { type: "string" } } },
        ...BUSINESS_ONLY,
      },
    }),
    requireUser,
    requireBusiness,
    queryParams(ExportQuery),
    (c) => {
      const query = c.req.valid("query");
      const filter = { ...resolveRange(query), status: query.status, keyId: query.key_id };
      return new Response(exportSessionLog(c.var.ctx, c.var.user.id, filter), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${exportFileName(filter)}"`,
          "cache-control": "no-store",
        },
      });
    },
  )
  .get(
    "/by-key",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Counts per status for each key, revoked keys included",
      responses: { 200: { description: "The window and one entry per key of the account.", data: UsageByKey }, ...BUSINESS_ONLY },
    }),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async (c) => ok(c, await usageByKey(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query")))),
  )
  .get(
    "/by-day",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Counts per status for each UTC day of the window",
      description:
        "Sessions counted by the UTC day of created_at, with the same window and counts as the summary. " +
        "Every day the window touches is listed, oldest first, days without sessions as zeros; the first " +
        "and last day count only the part inside the window. At most 367 days (a window spans at most 366).",
      responses: { 200: { description: "The window and one entry per UTC day.", data: UsageByDay }, ...BUSINESS_ONLY },
    }),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async (c) => ok(c, await usageByDay(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query")))),
  )
  .get(
    "/summary",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Counts per status across all keys",
      responses: { 200: { description: "The window and its totals.", data: UsageSummary }, ...BUSINESS_ONLY },
    }),
    requireUser,
    requireBusiness,
    queryParams(RangeQuery),
    async (c) => ok(c, await usageSummary(c.var.ctx, c.var.user.id, countedRange(c.req.valid("query")))),
  )
  .get(
    "/sessions/:id/callbacks",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Callback delivery log of one of your sessions",
      description:
        "Each callback event of the session (Standard Webhooks, one per resolution) with its webhook-id, type, " +
        "state (pending while retries remain, delivered, failed) and every attempt: time, duration, HTTP status " +
        "or error kind (timeout, network_error, redirect_not_followed, dead_lettered; in_progress while an " +
        "attempt is being sent, interrupted if its sender stopped before recording an outcome). Attempts follow " +
        `the schedule ${RETRY_SCHEDULE_SECONDS.map(formatWait).join(", ")} after the previous one, ` +
        `with up to 10 % added jitter; Retry-After on 429/503 is honoured as a minimum wait (up to ${formatWait(MAX_RETRY_AFTER_SECONDS)}); ` +
        "410 stops retrying.",
      security: "bearer",
      responses: {
        200: { description: "The session's callback events, oldest first.", data: SessionCallbacks },
        ...BUSINESS_ONLY,
        404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
      },
    }),
    requireUser,
    requireBusiness,
    async (c) => {
      const events = await listSessionCallbacks(c.var.ctx.db, c.var.user.id, c.req.param("id"));
      return ok(c, { events });
    },
  )
  .post(
    "/sessions/:id/callbacks/redeliver",
    describe(OPENAPI_METADATA && {
      tag: "Usage",
      summary: "Send the session's latest callback event again, now",
      description:
        "A new attempt of the same event (same webhook-id, so receivers de-duplicate), whether it was delivered or failed. " +
        "A delivered or failed event gets one attempt, off the retry schedule: its state becomes delivered or failed by that attempt. " +
        "A pending event keeps its schedule; this attempt only comes sooner. " +
        `Limited to ${CALLBACK_TOOL_LIMIT} redeliveries and test events per account per minute.`,
      security: "bearer",
      responses: {
        202: { description: "Queued: the attempt shows in the delivery log within seconds.", data: z.object({ webhook_id: z.string(), type: z.string(), state: z.literal("pending") }) },
        ...BUSINESS_ONLY,
        404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
        409: { description: "Not resolved yet, or past its retention.", codes: ["NOTHING_TO_REDELIVER"] },
        429: { description: "Too many redeliveries and test events from this account this minute.", codes: ["RATE_LIMITED"] },
      },
    }),
    requireUser,
    requireBusiness,
    async (c) => {
      const admit = () => enforceLimit(c.env.CALLBACK_LIMITER, `callback-tools:${c.var.user.id}`);
      return ok(c, await redeliverLatestCallback(c.var.ctx, c.var.user.id, c.req.param("id"), admit), 202);
    },
  );
