// GET /authorize: the wallet's authorization request (RFC 6749 §4.1.1 with PKCE; docs/attestations.md),
// answered with the service's own consent page. The request is checked first; a bad one is answered
// here as a 400 OAuth error, never by redirecting to a redirect_uri nobody has vetted. The page names
// the redirect_uri's https origin, or its scheme as an app's, so that a person is not talked into
// issuing to someone else's wallet, and may not be framed; its form may post only here and lead only to
// that redirect_uri.
import { attestationSigner, checkAuthorizationRequest } from "../../domain/attestations";
import { notFound } from "../../errors";
import { contentSecurityPolicy } from "../../web/csp";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { asOAuth } from "./oauth-response";
import { ConsentPage } from "./consent-page";

const spec = { method: "get", path: "/authorize", limits: {} } as const satisfies RouteSpec;

/**
 * Where the code goes, as the page names it: an https site by its origin, a wallet's own scheme as the
 * app that opens its links. Never alike: a scheme may look like a host (`wallet.example.org:`), and any
 * app can claim a scheme, while only the site's holder receives a code at its https address.
 */
export const destinationOf = (redirectUri: string) => {
  const target = new URL(redirectUri);
  return target.protocol === "https:" ? target.origin : `the app that opens ${target.protocol} links`;
};

/** The page's policy: the service's own, with the form allowed to lead (by the redirect) to the wallet. */
export function consentPolicy(redirectUri: string): string {
  const target = new URL(redirectUri);
  const source = target.protocol === "https:" ? target.origin : target.protocol;
  return contentSecurityPolicy().replace("form-action 'self'", `form-action 'self' ${source}`);
}

export const authorizePageRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function authorizePage(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    return asOAuth(c, async () => {
      const request = checkAuthorizationRequest(c.req.query());
      c.header("Cache-Control", "no-store");
      c.header("Content-Security-Policy", consentPolicy(request.redirect_uri));
      return c.html(<ConsentPage destination={destinationOf(request.redirect_uri)} action={`/authorize${new URL(c.req.url).search}`} />);
    });
  }),
} satisfies NamedRoute;
