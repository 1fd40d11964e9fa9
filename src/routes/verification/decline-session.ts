// POST /api/age-verification/session/{id}/decline: the end user says no from the first screen, without an account.
import { declineSession, NonceQuery } from "../../domain/verification";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { declineSessionDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";

const spec = { method: "post", path: "/session/:id/decline", limits: {} } as const satisfies RouteSpec;

export const declineSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, declineSessionDoc())),
    queryParams(NonceQuery),
    async function decline(c) {
      return ok(c, await declineSession(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), c.req.valid("query").nonce)));
    },
  ),
} satisfies NamedRoute;
