// Every JSON answer may carry something for one reader only (API keys and signing secrets on creation,
// account data, session answers): no browser or intermediary cache may keep a copy. The one exception is
// an answer its route declares public for everyone (the receipts' key set, /.well-known/jwks.json).
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env";

export const noStoreJson = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(c.res.headers.get("content-type") ?? "")) return;
  if (/^public\b/.test(c.res.headers.get("cache-control") ?? "")) return;
  c.res.headers.set("Cache-Control", "no-store");
});
