// Configuration guards: production refuses to serve without its secrets; development-only routes
// do not exist in production.
import { createMiddleware } from "hono/factory";
import { isProduction, misconfigured, missingSecrets } from "../config";
import { notFound } from "../errors";
import type { AppEnv } from "./app-env";
import { log } from "../lib/log";

export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  if (isProduction(c.env)) {
    const missing = missingSecrets(c.env);
    if (missing.length > 0) {
      // Names only, never values.
      log("error", "missing required secrets", { requestId: c.get("requestId"), missing });
      throw misconfigured();
    }
  }
  await next();
});

export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (isProduction(c.env)) throw notFound("Route");
  await next();
});
