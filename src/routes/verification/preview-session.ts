// GET /api/age-verification/session/{id}/preview: the end user's first screen, with the nonce and no account.
import { NonceQuery, previewSession } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { SessionNonceHeader } from "../../http/session-nonce";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { SessionPreview } from "../../session/session-view";
import { firstScreenNonce } from "./first-screen-nonce";
import { accountOnDoubleBlind, noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function previewSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "The first screen of the end user's app: who asks, the age, whether the link can still be answered",
    description:
      "Needs no account: the nonce (header X-Session-Nonce, or ?nonce=) proves the link. An unknown id and a wrong nonce get the same 404. A PENDING session past its expiry is expired first (as a poll does). " +
      "Never shows the merchant's reference or metadata; return_url and locale are the merchant's, when it gave them. CORS-enabled for any origin (GET with X-Session-Nonce only, never credentials), so the merchant's drop-in can read the status from the checkout page (docs/drop-in.md). Cheap by design (one read of the session's Durable Object, no database query); it counts on the session-link limit per client address (120 a minute with the other nonce routes), so a drop-in polls it every 1.5 s at most.",
    headers: SessionNonceHeader,
    responses: {
      200: { description: "The preview", data: SessionPreview },
      // No credential is needed here; an id of "." is resolved by URL rules onto the merchant's poll route.
      401: { description: "Only for an id that URL normalisation turns into another route", codes: ["UNAUTHORIZED"] },
      ...accountOnDoubleBlind,
      ...linkSession(),
    },
  };
}
