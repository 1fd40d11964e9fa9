// GET /api/usage/sessions/{id}/callbacks: the callback delivery log of one of the account's sessions.
import { listSessionCallbacks, CallbackEventView } from "../../domain/merchant-callbacks";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { MAX_RETRY_AFTER_SECONDS, RETRY_SCHEDULE_SECONDS } from "../../callbacks/retry-policy";
import { formatWait } from "../../lib/time";
import { BUSINESS_ONLY } from "./export-session-log";

const spec = { method: "get", path: "/sessions/:id/callbacks", limits: {} } as const satisfies RouteSpec;

export const listSessionCallbacksRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listSessionCallbacksDoc())),
    requireUser,
    requireBusiness,
    async function listCallbacks(c) {
      const events = await listSessionCallbacks(c.var.ctx.db, c.var.user.id, c.req.param("id"));
      return ok(c, { events });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function listSessionCallbacksDoc(): OperationDoc {
  return {
    tag: "Usage",
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
