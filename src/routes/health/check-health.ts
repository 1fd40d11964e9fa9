// GET /api/health: liveness, including a D1 round trip to the home shard (503 when it does not answer).
// Only the home shard: a health probe that read every shard would be the one request that fans out.
import { ApiError } from "../../errors";
import { API_VERSION } from "../../http/api-version";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = { method: "get", path: "/health", limits: {} } as const satisfies RouteSpec;

export const checkHealthRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, checkHealthDoc())), async function checkHealth(c) {
    try {
      await c.var.ctx.home.$client.prepare("SELECT 1").first();
    } catch {
      throw new ApiError("UNAVAILABLE");
    }
    return ok(c, { status: "ok" as const, version: API_VERSION });
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function checkHealthDoc(): OperationDoc {
  return {
    tag: "Health",
    summary: "Liveness, including a D1 round trip",
    responses: {
      200: { description: "The service and its database answer.", data: z.object({ status: z.literal("ok"), version: z.string() }) },
      503: { description: "D1 does not answer.", codes: ["UNAVAILABLE"] },
    },
  };
}
