// What every request gets, in one middleware rather than six (each Hono middleware is one more
// dispatch, closure and promise per request; docs/performance.md): on the way in its request id
// (X-Request-Id: the caller's when well-formed, else a new UUID, as hono/request-id does), its service
// context and the configuration check (a configuration that breaks a rule of src/config/problems.ts
// answers 503 MISCONFIGURED to everything); on the way out the security headers (a page's set or data's:
// secure-headers.ts), no-store on JSON answers, and one log line when it failed. The order of the old
// chain is kept: no-store, then the security headers, then the log line.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { misconfigured, type Bindings } from "../config/settings";
import type { ServiceContext } from "../context/service-context";
import { withParts } from "../context/shard-contexts";
import type { AppEnv } from "./app-env";
import { handleError } from "./error-envelope";
import { noStoreJson } from "./no-store";
import { logFailedRequest } from "./request-log";
import { setSecureHeaders } from "./secure-headers";

const REQUEST_ID = "X-Request-Id";

/**
 * The request's service context: the isolate's one (`contextOf`, src/service.ts). In development, mail
 * links point at the address this server actually answers on (any port), so a second `wrangler dev`
 * works without editing APP_URL. Never in production: a request's Host is the caller's to choose, so
 * production links come from APP_URL only. The origin rides beside the isolate's context, not inside it.
 */
function requestContext(c: Context<AppEnv>, contextOf: (env: Bindings) => ServiceContext): ServiceContext {
  const root = contextOf(c.env);
  if (root.settings.production) return root;
  // One derived root per origin (its per-shard views are cached with it), not one per request.
  let byOrigin = developmentContexts.get(root);
  if (!byOrigin) developmentContexts.set(root, (byOrigin = new Map()));
  const origin = originOf(c.req.url);
  let ctx = byOrigin.get(origin);
  if (!ctx) byOrigin.set(origin, (ctx = withParts(root, { linkOrigin: origin })));
  return ctx;
}

const developmentContexts = new WeakMap<ServiceContext, Map<string, ServiceContext>>();

/**
 * The origin of the request's absolute URL (scheme and authority, as URL.origin gives it for http and
 * https) without parsing a URL object on every development request: a measurable share of a bare
 * request's CPU in the bench (docs/performance.md). workerd hands the Worker a normalised absolute URL.
 */
export function originOf(url: string): string {
  const authority = url.indexOf("//") + 2;
  const path = url.indexOf("/", authority);
  const end = path === -1 ? url.length : path;
  const query = url.indexOf("?", authority);
  const origin = url.slice(0, query !== -1 && query < end ? query : end);
  // Credentials in the authority (a Host header can carry "user@") are not part of an origin: parse those.
  return origin.includes("@") ? new URL(url).origin : origin.toLowerCase();
}

/** `contextOf` builds the isolate's service context: the app passes src/service.ts's (this layer is below it). */
export const requestFrame = (contextOf: (env: Bindings) => ServiceContext) =>
  createMiddleware<AppEnv>(async (c, next) => {
    let id = c.req.header(REQUEST_ID);
    if (!id || id.length > 255 || /[^\w\-=]/.test(id)) id = crypto.randomUUID();
    c.set("requestId", id);
    c.header(REQUEST_ID, id);
    const ctx = requestContext(c, contextOf);
    c.set("ctx", ctx);
    const started = Date.now();
    // Answered here rather than thrown, so the refusal still gets the headers and the log line below; the
    // body says only 503 MISCONFIGURED, the log line names the settings and rules (never values).
    if (ctx.settings.problems.length > 0) c.res = handleError(misconfigured(ctx.settings.problems), c);
    else await next();
    const contentType = c.res.headers.get("content-type");
    noStoreJson(c.res.headers, contentType);
    setSecureHeaders(c.res.headers, contentType);
    logFailedRequest(c, started);
  });
