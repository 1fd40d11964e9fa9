// POST /api/age-verification/session/{id}/decline: the end user says no from the first screen, without an account.
import { declineSession, NonceQuery } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { SessionNonceHeader } from "../../http/session-nonce";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PolledSession } from "../../session/session-view";
import { firstScreenNonce } from "./first-screen-nonce";
import { accountOnDoubleBlind, noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function declineSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Decline as the end user, without an account",
    description:
      '"Not now" from the first screen: the session becomes DENIED (assurance null, holder_binding null: no identity was checked) and the merchant\'s callback is sent. Needs only the nonce (header X-Session-Nonce, or ?nonce=); no account is involved or recorded, so no per-account limit applies (the 256-bit nonce cannot be guessed, and a session is declined at most once).',
    headers: SessionNonceHeader,
    responses: {
      200: { description: "Declined", data: PolledSession },
      409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
      ...accountOnDoubleBlind,
      ...linkSession(),
    },
  };
}
