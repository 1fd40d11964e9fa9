// GET /.well-known/jwks-test.json: the key that verifies test receipts (src/session/receipts.ts), apart
// from the live key set, so a test receipt never verifies against /.well-known/jwks.json. Public and
// cacheable like it; outside /api, so not in the OpenAPI document.
import { testReceiptJwks } from "../../session/receipts";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/jwks-test.json", limits: {} } as const satisfies RouteSpec;

export const readTestJwksRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function readTestJwks(c) {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(await testReceiptJwks(c.var.ctx.settings));
  }),
} satisfies NamedRoute;
