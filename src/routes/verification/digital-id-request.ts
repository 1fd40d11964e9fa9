// POST /api/age-verification/session/{id}/digital-id/request: a fresh request for the browser's Digital
// Credentials API (docs/api-contract.md §Digital ID), with the nonce and no account; no body.
import { requestDigitalId } from "../../domain/verification";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { digitalIdRequestDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";

const spec = { method: "post", path: "/session/:id/digital-id/request", limits: {} } as const satisfies RouteSpec;

export const digitalIdRequestRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && digitalIdRequestDoc()),
    async function digitalCredentialRequest(c) {
      return ok(c, await requestDigitalId(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), undefined)));
    },
  ),
} satisfies NamedRoute;
