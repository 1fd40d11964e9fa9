// GET /.well-known/jwks.json: the public keys that verify live receipts (src/session/receipts.ts), current
// first; GET /.well-known/jwks-test.json: the key of test receipts. Public and cacheable; a rotated-out key stays here while its receipts matter (docs/receipts.md).
import { Hono } from "hono";
import { receiptJwks, testReceiptJwks } from "../session/receipts";
import type { AppEnv } from "../http/app-env";

export const jwksRoutes = new Hono<AppEnv>()
  .get("/jwks.json", (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(receiptJwks(c.var.ctx.settings));
  })
  // The test receipts' key, apart: a test receipt never verifies against the live key set above.
  .get("/jwks-test.json", async (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(await testReceiptJwks(c.var.ctx.settings));
  });
