// Builds the domain context once per request; handlers and middleware read it as c.var.ctx.
import { createMiddleware } from "hono/factory";
import { domainContext } from "../domain/context";
import type { AppEnv } from "./app-env";

export const provideDomainContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set("ctx", domainContext(c.env));
  await next();
});
