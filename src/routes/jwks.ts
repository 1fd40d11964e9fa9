// GET /.well-known/jwks.json: the public keys that verify receipts (src/session/receipts.ts), current
// first. Public and cacheable; a rotated-out key stays here while its receipts matter (docs/receipts.md).
import { Hono } from "hono";
import { receiptJwks } from "../session/receipts";
import type { AppEnv } from "../http/app-env";

export const jwksRoutes = new Hono<AppEnv>().get("/jwks.json", (c) => {
  c.header("Cache-Control", "public, max-age=300");
  c.header("Access-Control-Allow-Origin", "*");
  return c.json(receiptJwks(c.var.ctx.settings));
});
