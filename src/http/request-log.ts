// One structured line per request that went wrong (status 400 and above): the route pattern (never the raw
// path or query string, which can carry nonces and tokens), status and duration. A request that succeeded
// writes nothing: measured, the line was the largest fixed cost of a poll (docs/performance.md), and the
// Workers metrics already count every request by status with its duration. Errors keep their own lines.
import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { log } from "../lib/log";

/** Called by the request frame (src/http/request-frame.ts) once the answer is ready. */
export function logFailedRequest(c: Context<AppEnv>, started: number): void {
  const status = c.res.status;
  if (status < 400) return;
  log(status >= 500 ? "error" : "info", "request", {
    requestId: c.get("requestId"),
    method: c.req.method,
    route: c.req.routePath,
    status,
    durationMs: Date.now() - started,
  });
}
