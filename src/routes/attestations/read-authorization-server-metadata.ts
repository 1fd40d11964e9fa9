// GET /.well-known/oauth-authorization-server: the authorization server metadata (RFC 8414,
// docs/attestations.md); the credential issuer is its own authorization server. Public and cacheable; a
// deployment that issues nothing has none (404). Outside /api, so it is not in the OpenAPI document.
import { attestationSigner, authorizationServerMetadata } from "../../domain/attestations";
import { notFound } from "../../errors";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/oauth-authorization-server", limits: {} } as const satisfies RouteSpec;

export const readAuthorizationServerMetadataRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function readAuthorizationServerMetadata(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(authorizationServerMetadata(c.var.ctx.settings.appUrl));
  }),
} satisfies NamedRoute;
