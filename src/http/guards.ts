// Configuration guards: a configuration that breaks a rule of src/config/problems.ts refuses to serve; development-only routes
// do not exist in production.
import { createMiddleware } from "hono/factory";
import { isProduction, misconfigured } from "../config/settings";
import { configurationProblems } from "../config/problems";
import { notFound } from "../errors";
import type { AppEnv } from "./app-env";
import { log } from "../lib/log";

export const requireConfiguration = createMiddleware<AppEnv>(async (c, next) => {
  const problems = configurationProblems(c.env);
  if (problems.length > 0) {
    // Names and rules only, never values.
    log("error", "misconfigured: refusing to serve", { requestId: c.get("requestId"), problems });
    throw misconfigured(problems);
  }
  await next();
});

export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (isProduction(c.env)) throw notFound("Route");
  await next();
});
