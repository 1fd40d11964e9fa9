// The merchant's view of callback delivery for one of its sessions (CONTRACT §8), mounted under /api/usage.
import { Hono } from "hono";
import * as z from "zod";
import { MAX_RETRY_AFTER_SECONDS, RETRY_SCHEDULE_SECONDS } from "../callbacks/retry-policy";
import { CallbackEventView, listSessionCallbacks } from "../domain/callback-log";
import type { AppEnv } from "../http/app-env";
import { describe } from "../http/openapi-meta";
import { requireBusiness, requireUser } from "../http/require-user";
import { ok } from "../http/respond";
import { formatWait } from "../lib/time";

const SessionCallbacks = z.object({ events: z.array(CallbackEventView) });

export const callbackRoutes = new Hono<AppEnv>().get(
  "/sessions/:id/callbacks",
  describe({
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
      403: { description: "Not a business account.", codes: ["BUSINESS_ACCOUNT_REQUIRED"] },
      404: { description: "No such session among your own.", codes: ["NOT_FOUND"] },
    },
  }),
  requireUser,
  requireBusiness,
  async (c) => {
    const events = await listSessionCallbacks(c.var.ctx.db, c.var.user.id, c.req.param("id"));
    return ok(c, { events });
  },
);
