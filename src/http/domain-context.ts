// Hands every request its domain context as c.var.ctx. The context (a drizzle instance over the D1
// binding, and the bindings) depends on nothing but the bindings, which workerd passes as the same object
// to every request of an isolate: it is built once per isolate, not per request (building drizzle with
// its schema walks every table each time). A different bindings object (a test's own env) gets its own.
import { createMiddleware } from "hono/factory";
import type { Bindings } from "../config";
import { domainContext, type DomainContext } from "../domain/context";
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

export const provideDomainContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set("ctx", isolateDomainContext(c.env));
  await next();
});
