// Configuration guards: a configuration that breaks a rule of src/config/problems.ts refuses to serve; development-only routes
// do not exist in production.
import { createMiddleware } from "hono/factory";
import { misconfigured } from "../config/settings";
import { notFound } from "../errors";
import type { AppEnv } from "./app-env";

export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const problems = c.var.ctx.settings.problems;
  if (problems.length > 0) {
    // The body says only 503 MISCONFIGURED; the log line names the settings and rules (never values).
    throw misconfigured(problems);
  }
  await next();
});

export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.ctx.settings.production) throw notFound("Route");
  await next();
});
