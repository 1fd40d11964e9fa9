// One structured line per request: the route pattern (never the raw path or query string, which can
// carry nonces and tokens), status and duration.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { log } from "../lib/log";

export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  const started = Date.now();
  await next();
  log(c.res.status >= 500 ? "error" : "info", "request", {
    requestId: c.get("requestId"),
    method: c.req.method,
    route: c.req.routePath,
    status: c.res.status,
    durationMs: Date.now() - started,
  });
});
