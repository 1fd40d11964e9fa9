// POST /nonce: a fresh c_nonce for the wallet's proofs (OpenID4VCI 1.0 §7; docs/attestations.md). Needs
// no token (the wallet may ask before it has one); each nonce is a stored row, so calls are limited per
// address, and one nonce serves every proof of one credential request.
import { attestationSigner, createGrant, GRANT_LIFETIME_SECONDS } from "../../domain/attestations";
import { notFound } from "../../errors";
import { LIMITS } from "../../http/limits";
import { limitPerAddress } from "../../http/rate-limit";
import { describe } from "../../http/openapi-meta";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { oauthJson } from "./oauth-response";

const spec = { method: "post", path: "/nonce", limits: { perAddress: LIMITS.issuancePerAddress } } as const satisfies RouteSpec;

export const createNonceRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, {})),
    limitPerAddress(spec.limits.perAddress),
    async function createNonce(c) {
      if (!(await attestationSigner(c.var.ctx.settings))) throw notFound("Route");
      const nonce = await createGrant(c.var.ctx, "nonce", Date.now());
      return oauthJson(c, { c_nonce: nonce, c_nonce_expires_in: GRANT_LIFETIME_SECONDS.nonce });
    },
  ),
} satisfies NamedRoute;
