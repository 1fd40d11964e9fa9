// GET /authorize: the wallet's authorization request (RFC 6749 §4.1.1 with PKCE; docs/attestations.md),
// answered with the service's own consent page. The request is checked first; a bad one is answered
// here as a 400 OAuth error, never by redirecting to a redirect_uri nobody has vetted. The page names
// the redirect_uri's https origin, or its scheme as an app's, so that a person is not talked into
// issuing to someone else's wallet, and may not be framed; its form may post only here and lead only to
// that redirect_uri.
import type { Context } from "hono";
import { attestationSigner, checkAuthorizationRequest } from "../../domain/attestations";
import { notFound } from "../../errors";
import type { AppEnv } from "../../http/app-env";
import { contentSecurityPolicy } from "../../web/csp";
import { chooseLocale, fromAcceptLanguage, translate } from "../../web/i18n/catalogue";
import type { Catalogue, TextKey } from "../../web/i18n/en";
import { pageLanguage } from "../../web/page-response";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { asOAuth } from "./oauth-response";
import { ConsentPage } from "./consent-page";

const spec = { method: "get", path: "/authorize", limits: {} } as const satisfies RouteSpec;

/**
 * Where the code goes, as the page names it: an https site by its origin, a wallet's own scheme as the
 * app that opens its links. Never alike: a scheme may look like a host (`wallet.example.org:`), and any
 * app can claim a scheme, while only the site's holder receives a code at its https address.
 */
export const destinationOf = (redirectUri: string, catalogue: Catalogue) => {
  const target = new URL(redirectUri);
  return target.protocol === "https:" ? target.origin : translate(catalogue, "consent.destination.app", { scheme: target.protocol });
};

/** The page's policy: the service's own, with the form allowed to lead (by the redirect) to the wallet. */
export function consentPolicy(redirectUri: string): string {
  const target = new URL(redirectUri);
  const source = target.protocol === "https:" ? target.origin : target.protocol;
  return contentSecurityPolicy().replace("form-action 'self'", `form-action 'self' ${source}`);
}

/**
 * The consent page for a checked request, as GET shows it and POST shows it again with a refusal. Its
 * language is chosen as the other pages choose theirs: the switcher's `lang`, else the wallet's
 * `ui_locales` (OpenID Connect's request parameter, languages by preference), else Accept-Language.
 */
export async function consentPage(c: Context<AppEnv>, redirectUri: string, error?: TextKey) {
  const query = c.req.query();
  const { lang, ...request } = query;
  const walletLanguages = query.ui_locales ? fromAcceptLanguage(query.ui_locales.trim().split(/\s+/).join(",")) : null;
  const language = await pageLanguage(
    c,
    chooseLocale({ chosen: lang, session: walletLanguages, acceptLanguage: c.req.header("accept-language") }),
  );
  c.header("Cache-Control", "no-store");
  c.header("Content-Security-Policy", consentPolicy(redirectUri));
  return (
    <ConsentPage
      language={language}
      destination={destinationOf(redirectUri, language.catalogue)}
      action={`/authorize${new URL(c.req.url).search}`}
      request={request}
      error={error}
      development={!c.var.ctx.settings.production}
    />
  );
}

export const authorizePageRoute = {
  ...spec,
  handlers: handlersFor(spec)(async function authorizePage(c) {
    if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
    return asOAuth(c, async () => {
      const request = checkAuthorizationRequest(c.req.query());
      return c.html(await consentPage(c, request.redirect_uri));
    });
  }),
} satisfies NamedRoute;
