// POST /token: a pre-authorized code with its transaction code, or an authorization code with its PKCE
// verifier, for a single-use access token (RFC 6749 §3.2, OpenID4VCI 1.0 §6; docs/attestations.md).
// Form-encoded; errors in RFC 6749 §5.2's form. Limited per address: each call may be a guess.
import { attestationSigner, exchangeGrant } from "../../domain/attestations";
import { notFound } from "../../errors";
import { LIMITS } from "../../http/limits";
import { limitPerAddress } from "../../http/rate-limit";
import { describe } from "../../http/openapi-meta";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { asOAuth, formBody, oauthJson } from "./oauth-response";

const spec = { method: "post", path: "/token", limits: { perAddress: LIMITS.issuancePerAddress } } as const satisfies RouteSpec;

export const exchangeTokenRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, {})),
    limitPerAddress(spec.limits.perAddress),
    async function exchangeToken(c) {
      if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
      return asOAuth(c, async () => oauthJson(c, await exchangeGrant(c.var.ctx, await formBody(c), Date.now())));
    },
  ),
} satisfies NamedRoute;
