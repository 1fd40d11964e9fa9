// GET /.well-known/private-token-issuer-directory: the Privacy Pass issuer directory (RFC 9578 §4,
// docs/api-contract.md §Age tokens): where to ask for age tokens and every published token key with its age_over. Public
// and cacheable. Outside /api, so it is not in the OpenAPI document (docs/double-blind.md describes it).
// A deployment without token keys has no directory (404).
import { deploymentTokenKeys, ISSUER_DIRECTORY_CACHE_CONTROL, ISSUER_DIRECTORY_MEDIA_TYPE, issuerDirectory } from "../../domain/age-tokens";
import { notFound } from "../../errors";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "get", path: "/private-token-issuer-directory", limits: {} } as const satisfies RouteSpec;

export const readIssuerDirectoryRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function readIssuerDirectory(c) {
    const keys = await deploymentTokenKeys(c.var.ctx.settings);
    if (!keys) throw notFound("Route");
    return new Response(JSON.stringify(issuerDirectory(keys, c.var.ctx.settings.appUrl)), {
      headers: {
        "Content-Type": ISSUER_DIRECTORY_MEDIA_TYPE,
        "Cache-Control": ISSUER_DIRECTORY_CACHE_CONTROL,
        "Access-Control-Allow-Origin": "*",
      },
    });
  }),
} satisfies NamedRoute;
