// What every request gets, in one middleware rather than five (each Hono middleware is one more
// dispatch, closure and promise per request; docs/performance.md): on the way in its request id
// (X-Request-Id: the caller's when well-formed, else a new UUID, as hono/request-id does) and its domain
// context; on the way out the security headers, no-store on JSON answers, and one log line when it failed.
// The order of the old chain is kept: no-store, then the security headers, then the log line.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";
import { requestDomainContext } from "./domain-context";
import { noStoreJson } from "./no-store";
import { logFailedRequest } from "./request-log";
import { setSecureHeaders } from "./secure-headers";

const REQUEST_ID = "X-Request-Id";

export const requestFrame = createMiddleware<AppEnv>(async (c, next) => {
  let id = c.req.header(REQUEST_ID);
  if (!id || id.length > 255 || /[^\w\-=]/.test(id)) id = crypto.randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID, id);
  c.set("ctx", requestDomainContext(c));
  const started = Date.now();
  await next();
  noStoreJson(c.res.headers);
  setSecureHeaders(c.res.headers);
  logFailedRequest(c, started);
});
