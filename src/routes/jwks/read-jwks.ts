// GET /.well-known/jwks.json: the public keys that verify receipts (src/session/receipts.ts): the live
// ones, current first, then the test receipts' key (kid `<kid>.test`). Public and cacheable; a
// rotated-out key stays here while its receipts matter (docs/receipts.md).
// Outside /api, so it is not in the OpenAPI document and has no prose.
import { publishedReceiptKeys } from "../../session/receipts";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/jwks.json", limits: {} } as const satisfies RouteSpec;

export const readJwksRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function readJwks(c) {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(await publishedReceiptKeys(c.var.ctx.settings));
  }),
} satisfies NamedRoute;
