// GET /.well-known/jwks.json: the public keys that verify live receipts (src/session/receipts.ts), current
// first. Public and cacheable; a rotated-out key stays here while its receipts matter (docs/receipts.md).
// Outside /api, so it is not in the OpenAPI document and has no prose.
import { receiptJwks } from "../../session/receipts";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/jwks.json", limits: {} } as const satisfies RouteSpec;

export const readJwksRoute = {
  ...spec,
  handlers: handlersFor(spec)(function readJwks(c) {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(receiptJwks(c.var.ctx.settings));
  }),
} satisfies NamedRoute;
