// POST /credential: one batch of proof-of-age attestations for a single-use access token, one per proof
// of possession (OpenID4VCI 1.0 §8; docs/attestations.md); the rules are the domain's
// (credential-issuance.ts). Nothing of the answer is logged or kept.
import { attestationSigner, issueCredentials } from "../../domain/attestations";
import { notFound } from "../../errors";
import { LIMITS } from "../../http/limits";
import { limitPerAddress } from "../../http/rate-limit";
import { describe } from "../../http/openapi-meta";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { asOAuth, bearerToken, jsonRequestBody, oauthJson } from "./oauth-response";

const spec = { method: "post", path: "/credential", limits: { perAddress: LIMITS.issuancePerAddress } } as const satisfies RouteSpec;

export const issueCredentialRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, {})),
    limitPerAddress(spec.limits.perAddress),
    async function issueCredential(c) {
      const signer = await attestationSigner(c.var.ctx.settings);
      if (!signer) throw notFound("Route");
      return asOAuth(c, async () =>
        oauthJson(c, await issueCredentials(c.var.ctx, signer, bearerToken(c), await jsonRequestBody(c), Date.now())),
      );
    },
  ),
} satisfies NamedRoute;
