// GET /.well-known/openid-credential-issuer: the credential issuer metadata (OpenID4VCI 1.0 §12.2,
// docs/attestations.md). Public and cacheable; a deployment that issues nothing has none (404). Outside
// /api, so it is not in the OpenAPI document.
import { attestationSigner, credentialIssuerMetadata } from "../../domain/attestations";
import { notFound } from "../../errors";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/openid-credential-issuer", limits: {} } as const satisfies RouteSpec;

export const readIssuerMetadataRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function readIssuerMetadata(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(credentialIssuerMetadata(c.var.ctx.settings.appUrl));
  }),
} satisfies NamedRoute;
