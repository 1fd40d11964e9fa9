// GET /api/age-verification/session/{id}/preview: the end user's first screen, with the nonce and no account.
import { NonceQuery, previewSession } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { previewSessionDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";
import { noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";

const spec = {
  method: "get",
  path: "/session/:id/preview",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const previewSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, previewSessionDoc())),
    limitPerAddress(spec.limits.perAddress),
    queryParams(NonceQuery),
    noAccountOnDoubleBlind(nonceInHeaderOr("query")),
    async function previewForEndUser(c) {
      const preview = await previewSession(
        c.var.ctx,
        c.req.param("id"),
        firstScreenNonce(c.req.header("x-session-nonce"), c.req.valid("query").nonce),
      );
      // The page's countdown runs on the server's clock (see /request).
      c.header("date", new Date().toUTCString());
      return ok(c, preview);
    },
  ),
} satisfies NamedRoute;
