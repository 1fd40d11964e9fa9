// Hands every request its domain context as c.var.ctx. The context (a drizzle instance over the D1
// binding, and the bindings) depends on nothing but the bindings, which workerd passes as the same object
// to every request of an isolate: it is built once per isolate, not per request (building drizzle with
// its schema walks every table each time). A different bindings object (a test's own env) gets its own.
import type { Context } from "hono";
import { isProduction, type Bindings } from "../config/settings";
import { domainContext, type DomainContext } from "../context/service-context";
import type { AppEnv } from "./app-env";

const contexts = new WeakMap<Bindings, DomainContext>();

export function isolateDomainContext(env: Bindings): DomainContext {
  let ctx = contexts.get(env);
  if (!ctx) {
    ctx = domainContext(env);
    contexts.set(env, ctx);
  }
  return ctx;
}

/** The request's domain context, set as c.var.ctx by the request frame (src/http/request-frame.ts). */
export function requestDomainContext(c: Context<AppEnv>): DomainContext {
  const shared = isolateDomainContext(c.env);
  // In development, mail links point at the address this server actually answers on (any port), so a
  // second `wrangler dev` works without editing APP_URL. Never in production: a request's Host is the
  // caller's to choose, so production links come from APP_URL only. The origin rides beside the
  // per-isolate context (same db, same env), not inside the cached one.
  return isProduction(c.env) ? shared : { ...shared, linkOrigin: new URL(c.req.url).origin };
}
