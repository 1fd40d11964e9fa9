// POST /api/usage/sessions/{id}/callbacks/redeliver: the session's latest callback event, sent again now.
import { redeliverLatestCallback } from "../../domain/merchant-callbacks";
import { LIMITS, aboutLimit } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireBusiness, requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { BUSINESS_ONLY } from "./export-session-log";

const spec = {
  method: "post",
  path: "/sessions/:id/callbacks/redeliver",
  limits: { callbackTools: LIMITS.callbackToolsPerAccount },
} as const satisfies RouteSpec;

export const redeliverCallbackRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, redeliverCallbackDoc())),
    requireUser,
    requireBusiness,
    async function redeliver(c) {
      // Counted by the domain once the event is found, before anything changes.
      const admit = () => countUse(c, spec.limits.callbackTools, c.var.user.id);
      return ok(c, await redeliverLatestCallback(c.var.ctx, c.var.user.id, c.req.param("id"), admit), 202);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function redeliverCallbackDoc(): OperationDoc {
  return {
    tag: "Usage",
    summary: "Send the session's latest callback event again, now",
    description:
      "A new attempt of the same event (same webhook-id, so receivers de-duplicate), whether it was delivered or failed. " +
      "A delivered or failed event gets one attempt, off the retry schedule: its state becomes delivered or failed by that attempt. " +
      "A pending event keeps its schedule; this attempt only comes sooner. " +
      `Limited to ${aboutLimit(spec.limits.callbackTools).perMinute} redeliveries and test events per account per minute.`,
    security: "bearer",
    responses: {
      202: {
        description: "Queued: the attempt shows in the delivery log within seconds.",
        data: z.object({ webhook_id: z.string(), type: z.string(), state: z.literal("pending") }),
      },
      ...BUSINESS_ONLY,
      404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
      409: { description: "Not resolved yet, or past its retention.", codes: ["NOTHING_TO_REDELIVER"] },
    },
  };
}
