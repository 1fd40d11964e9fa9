// POST /api/age-verification/session/{id}/decline: the end user says no from the first screen, without an account.
import { declineSession, NonceQuery } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { declineSessionDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";
import { noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";

const spec = {
  method: "post",
  path: "/session/:id/decline",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const declineSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, declineSessionDoc())),
    limitPerAddress(spec.limits.perAddress),
    queryParams(NonceQuery),
    noAccountOnDoubleBlind(nonceInHeaderOr("query")),
    async function decline(c) {
      return ok(
        c,
        await declineSession(c.var.ctx, c.req.param("id"), firstScreenNonce(c.req.header("x-session-nonce"), c.req.valid("query").nonce)),
      );
    },
  ),
} satisfies NamedRoute;
