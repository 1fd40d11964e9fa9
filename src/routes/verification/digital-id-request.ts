// POST /api/age-verification/session/{id}/digital-id/request: a fresh request for the browser's Digital
// Credentials API (docs/api-contract.md §Digital ID), with the nonce and no account; no body.
import { requestDigitalId } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { DIGITAL_ID_FAILURE_CAP, digitalIdRequestDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";
import { noAccountOnDoubleBlind, nonceInHeader } from "./no-account-on-double-blind";

const spec = {
  method: "post",
  path: "/session/:id/digital-id/request",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const digitalIdRequestRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, digitalIdRequestDoc(), DIGITAL_ID_FAILURE_CAP)),
    limitPerAddress(spec.limits.perAddress),
    noAccountOnDoubleBlind(nonceInHeader),
    async function digitalCredentialRequest(c) {
      return ok(c, await requestDigitalId(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), undefined)));
    },
  ),
} satisfies NamedRoute;
