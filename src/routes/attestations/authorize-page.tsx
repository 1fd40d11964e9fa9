// GET /authorize: the wallet's authorization request (RFC 6749 §4.1.1 with PKCE; docs/attestations.md),
// answered with the service's own consent page. The request is checked first; a bad one is answered
// here as a 400 OAuth error, never by redirecting to a redirect_uri nobody has vetted. The page names
// the redirect_uri's host or scheme, so that a person is not talked into issuing to someone else's
// wallet; approving calls POST /api/attestations/authorizations with the person's sign-in.
import { attestationSigner, checkAuthorizationRequest } from "../../domain/attestations";
import { notFound } from "../../errors";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { asOAuth } from "./oauth-response";
import { ConsentPage } from "./consent-page";

const spec = { method: "get", path: "/authorize", limits: {} } as const satisfies RouteSpec;

export const authorizePageRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function authorizePage(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    return asOAuth(c, async () => {
      const request = checkAuthorizationRequest(c.req.query());
      const target = new URL(request.redirect_uri);
      const destination = target.protocol === "https:" ? target.host : target.protocol.replace(/:$/, "");
      c.header("Cache-Control", "no-store");
      return c.html(<ConsentPage destination={destination} />);
    });
  }),
} satisfies NamedRoute;
