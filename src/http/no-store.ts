// Every JSON answer may carry something for one reader only (API keys and signing secrets on creation,
// account data, session answers): no browser or intermediary cache may keep a copy.
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";

export const noStoreJson = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(c.res.headers.get("content-type") ?? "")) c.res.headers.set("Cache-Control", "no-store");
});
