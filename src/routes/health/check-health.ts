// GET /api/health: liveness, including a D1 round trip (503 when D1 does not answer).
import { ApiError } from "../../errors";
import { API_VERSION } from "../../http/api-version";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { checkHealthDoc } from "./docs";

const spec = { method: "get", path: "/health", limits: {} } as const satisfies RouteSpec;

export const checkHealthRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, checkHealthDoc())), async function checkHealth(c) {
    try {
      await c.var.ctx.db.$client.prepare("SELECT 1").first();
    } catch {
      throw new ApiError("UNAVAILABLE");
    }
    return ok(c, { status: "ok" as const, version: API_VERSION });
  }),
} satisfies NamedRoute;
