// POST /api/age-verification/session/{id}/digital-id/response: the wallet's answer as the browser's
// DigitalCredential returns it (docs/api-contract.md §Digital ID), with the nonce and no account.
import { answerWithDigitalId, DigitalIdResponseBody } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { SessionNonceHeader } from "../../http/session-nonce";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PolledSession } from "../../session/session-view";
import { DIGITAL_ID_FAILURE_CAP, digitalIdRefusals } from "./digital-id-request";
import { firstScreenNonce } from "./first-screen-nonce";
import { noAccountOnDoubleBlind, nonceInHeader } from "./no-account-on-double-blind";

const spec = {
  method: "post",
  path: "/session/:id/digital-id/response",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const digitalIdResponseRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, digitalIdResponseDoc(), DIGITAL_ID_FAILURE_CAP)),
    // Before the body is read: a flood of made-up ids costs neither a parse nor a Durable Object.
    limitPerAddress(spec.limits.perAddress),
    noAccountOnDoubleBlind(nonceInHeader),
    jsonBody(DigitalIdResponseBody),
    async function answerWithWallet(c) {
      const nonce = firstScreenNonce(c.req.header("x-session-nonce"), undefined);
      return ok(c, await answerWithDigitalId(c.var.ctx, c.req.param("id"), nonce, c.req.valid("json")));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function digitalIdResponseDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "The wallet's answer: resolves the session with assurance DIGITAL_ID_VERIFIED",
    description:
      "Body: {protocol, data} as the browser's DigitalCredential returns them. APPROVED (holder_binding DEVICE_KEY) when the issuer's signature chains to a trust anchor, the credential is valid now, the disclosed values match their digests, the device signature (or key-binding JWT) covers the session's latest request and the origin of APP_URL, the status list the credential names (if any) says it is valid, and an age_over_M is true with M at least age_required; DENIED with denial_reason UNDER_AGE (a receipt, assurance DIGITAL_ID_VERIFIED) when one is false with M at most age_required. " +
      "Any other answer is refused with 422 and the session stays PENDING; each refusal counts, and the sixth answer after five refusals is 429. Nothing of the credential is stored or logged (docs/digital-id.md).",
    headers: SessionNonceHeader,
    responses: {
      200: { description: "Resolved: the polled session", data: PolledSession },
      422: {
        description:
          "DIGITAL_ID_INVALID: it does not answer the session's latest request (another origin, an earlier request, a replay, no request open) or a signature, chain, validity, digest or binding check failed, or the credential's status list says it is revoked or suspended or could not be fetched or verified (the message names the check, never a value); DIGITAL_ID_INSUFFICIENT: it verified but no age element decides; VALIDATION_FAILED: the body is not {protocol, data} of an offered protocol",
        codes: ["DIGITAL_ID_INVALID", "DIGITAL_ID_INSUFFICIENT", "VALIDATION_FAILED"],
      },
      ...digitalIdRefusals(),
    },
  };
}
