// Development-only routes do not exist in production. (A configuration that breaks a rule of
// src/config/problems.ts refuses to serve in the request frame, src/http/request-frame.ts.)
import { createMiddleware } from "hono/factory";
import { notFound } from "../errors";
import type { AppEnv } from "./app-env";

export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (c.var.ctx.settings.production) throw notFound("Route");
  await next();
});
