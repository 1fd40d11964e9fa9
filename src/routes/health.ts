import { Hono } from "hono";
import * as z from "zod";
import { ApiError } from "../errors";
import type { AppEnv } from "../http/app-env";
import { describe } from "../http/openapi-meta";
import { API_VERSION } from "../http/api-version";
import { ok } from "../http/respond";

const Health = z.object({ status: z.literal("ok"), version: z.string() });

export const healthRoutes = new Hono<AppEnv>().get(
  "/health",
  describe(OPENAPI_METADATA && {
    tag: "Health",
    summary: "Liveness, including a D1 round trip",
    responses: {
      200: { description: "The service and its database answer.", data: Health },
      503: { description: "D1 does not answer.", codes: ["UNAVAILABLE"] },
    },
  }),
  async (c) => {
    try {
      await c.env.DB.prepare("SELECT 1").first();
    } catch {
      throw new ApiError("UNAVAILABLE");
    }
    return ok(c, { status: "ok" as const, version: API_VERSION });
  },
);
