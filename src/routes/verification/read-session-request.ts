// GET /api/age-verification/session/{id}/request: what a session asks, for the signed-in end user (needs the nonce).
import { forHolder, NonceQuery, readSessionRequest } from "../../domain/verification";
import type { AppEnv } from "../../http/app-env";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { requireUserReadingVerifiedDob } from "../../http/require-user";
import { ok } from "../../http/respond";
import { sessionNonce, sessionNonceHeader } from "../../http/session-nonce";
import { queryParams } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { HolderSessionRequest } from "../../session/session-view";
import { accountOnDoubleBlind, noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

const spec = {
  method: "get",
  path: "/session/:id/request",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const readSessionRequestRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, readSessionRequestDoc())),
    limitPerAddress(spec.limits.perAddress),
    sessionNonceHeader,
    queryParams(NonceQuery),
    // The session first, with no account (a double-blind one refuses here); then the account.
    noAccountOnDoubleBlind(nonceInHeaderOr("query")),
    requireUserReadingVerifiedDob,
    async function readRequest(c) {
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], c.req.valid("query").nonce, "nonce");
      const opened = c.get("openedSession") as AppEnv["Variables"]["openedSession"] | undefined;
      const request = opened
        ? forHolder(opened, c.var.verifiedDob)
        : await readSessionRequest(c.var.ctx, c.req.param("id"), nonce, c.var.verifiedDob);
      // The page's countdown runs on the server's clock, not the phone's: Cloudflare's edge adds a Date
      // header, but local workerd does not, so the answer carries its own.
      c.header("date", new Date().toUTCString());
      return ok(c, request);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function readSessionRequestDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "What a session asks, for the end user's app (needs the nonce)",
    description:
      "Signed in (Bearer) with the nonce: the request with meets_age_required from the account's verified date of birth. A double-blind session is never read with an account (403 DOUBLE_BLIND_REQUIRED): its page reads the preview alone.",
    responses: { 200: { description: "The request", data: HolderSessionRequest }, ...accountOnDoubleBlind, ...linkSession() },
  };
}
