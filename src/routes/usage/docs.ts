// The OpenAPI prose of the Usage area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { MAX_RETRY_AFTER_SECONDS, RETRY_SCHEDULE_SECONDS } from "../../callbacks/retry-policy";
import { CallbackEventView } from "../../domain/merchant-callbacks";
import { CSV_COLUMNS, UsageByDay, UsageByKey, UsagePage, UsageSummary } from "../../domain/usage";
import { aboutLimit, LIMITS } from "../../http/limits";
import type { OperationDoc, Responses } from "../../http/openapi-meta";
import { formatWait } from "../../lib/time";

const tag = "Usage";
const BUSINESS_ONLY = { 403: { description: "Not a business account.", codes: ["BUSINESS_ACCOUNT_REQUIRED"] } } satisfies Responses;

// The counts outlive the raw log (docs/capacity.md): one sentence shared by the three count operations.
const COUNTS_BEYOND_THE_LOG =
  "Days older than the session log's retention (SESSION_LOG_RETENTION_DAYS, 45 by default) are counted from a daily rollup " +
  "the scheduled maintenance keeps, with the same answers; such a day is counted whole, even when `from` or `to` carries a time inside it.";

/** The log and the CSV list sessions: they cover only the raw log's retention. */
const RAW_LOG_ONLY = " Lists only sessions still in the log: SESSION_LOG_RETENTION_DAYS (45 by default); older days are in the counts only.";

export function listSessionLogDoc(): OperationDoc {
  return {
    tag,
    summary: "The session log, newest first, cursor-paged",
    description:
      "Keyset pagination on (created_at, id): sessions opened while you page never repeat or skip a row. " +
      "The window of the first page (from/to, `to` defaulting to now) stays fixed for its cursors. " +
      "A cursor edited, from another account or sent with other filters is 422. No end-user identity." + RAW_LOG_ONLY,
    responses: { 200: { description: "One page of the log.", data: UsagePage }, ...BUSINESS_ONLY },
  };
}

export function exportSessionLogDoc(): OperationDoc {
  return {
    tag,
    summary: "Every session matching the filters, as CSV",
    description:
      `Streamed; not paged. Columns: ${CSV_COLUMNS.join(", ")}. RFC 4180 with CRLF line ends; text starting ` +
      "with = + - @ (or a tab or carriage return) is prefixed with ' so spreadsheets do not run it." + RAW_LOG_ONLY,
    responses: {
      200: { description: "CSV with a header row.", content: { type: "text/csv", schema: { type: "string" } } },
      ...BUSINESS_ONLY,
    },
  };
}

export function usageByKeyDoc(): OperationDoc {
  return {
    tag,
    summary: "Counts per status for each key, revoked keys included",
    description: COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and one entry per key of the account.", data: UsageByKey }, ...BUSINESS_ONLY },
  };
}

export function usageByDayDoc(): OperationDoc {
  return {
    tag,
    summary: "Counts per status for each UTC day of the window",
    description:
      "Sessions counted by the UTC day of created_at, with the same window and counts as the summary. " +
      "Every day the window touches is listed, oldest first, days without sessions as zeros; the first " +
      "and last day count only the part inside the window. At most 367 days (a window spans at most 366). " +
      COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and one entry per UTC day.", data: UsageByDay }, ...BUSINESS_ONLY },
  };
}

export function usageSummaryDoc(): OperationDoc {
  return {
    tag,
    summary: "Counts per status across all keys",
    description: COUNTS_BEYOND_THE_LOG,
    responses: { 200: { description: "The window and its totals.", data: UsageSummary }, ...BUSINESS_ONLY },
  };
}

export function listSessionCallbacksDoc(): OperationDoc {
  return {
    tag,
    summary: "Callback delivery log of one of your sessions",
    description:
      "Each callback event of the session (Standard Webhooks, one per resolution) with its webhook-id, type, " +
      "state (pending while retries remain, delivered, failed) and every attempt: time, duration, HTTP status " +
      "or error kind (timeout, network_error, refused_address, redirect_not_followed, dead_lettered; in_progress while an " +
      "attempt is being sent, interrupted if its sender stopped before recording an outcome). Attempts follow " +
      `the schedule ${RETRY_SCHEDULE_SECONDS.map(formatWait).join(", ")} after the previous one, ` +
      `with up to 10 % added jitter; Retry-After on 429/503 is honoured as a minimum wait (up to ${formatWait(MAX_RETRY_AFTER_SECONDS)}); ` +
      "410 stops retrying.",
    security: "bearer",
    responses: {
      200: { description: "The session's callback events, oldest first.", data: z.object({ events: z.array(CallbackEventView) }) },
      ...BUSINESS_ONLY,
      404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
    },
  };
}

export function redeliverCallbackDoc(): OperationDoc {
  return {
    tag,
    summary: "Send the session's latest callback event again, now",
    description:
      "A new attempt of the same event (same webhook-id, so receivers de-duplicate), whether it was delivered or failed. " +
      "A delivered or failed event gets one attempt, off the retry schedule: its state becomes delivered or failed by that attempt. " +
      "A pending event keeps its schedule; this attempt only comes sooner. " +
      `Limited to ${aboutLimit(LIMITS.callbackToolsPerAccount).perMinute} redeliveries and test events per account per minute.`,
    security: "bearer",
    responses: {
      202: { description: "Queued: the attempt shows in the delivery log within seconds.", data: z.object({ webhook_id: z.string(), type: z.string(), state: z.literal("pending") }) },
      ...BUSINESS_ONLY,
      404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
      409: { description: "Not resolved yet, or past its retention.", codes: ["NOTHING_TO_REDELIVER"] },
    },
  };
}
