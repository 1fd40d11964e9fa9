// Builds the domain context once per request; handlers and middleware read it as c.var.ctx.
import { createMiddleware } from "hono/factory";
import { isProduction } from "../config";
import { domainContext } from "../domain/context";
import type { AppEnv } from "./app-env";

export const provideDomainContext = createMiddleware<AppEnv>(async (c, next) => {
  // In development, mail links point at the address this server actually answers on (any port), so a
  // second `wrangler dev` works without editing APP_URL. Never in production: a request's Host is the
  // caller's to choose, so production links come from APP_URL only.
  const env = isProduction(c.env) ? c.env : { ...c.env, APP_URL: new URL(c.req.url).origin };
  c.set("ctx", domainContext(env));
  await next();
});
