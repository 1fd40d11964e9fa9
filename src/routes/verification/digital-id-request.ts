// POST /api/age-verification/session/{id}/digital-id/request: a fresh request for the browser's Digital
// Credentials API (docs/api-contract.md §Digital ID), with the nonce and no account; no body.
import * as z from "../../lib/lazy-zod";
import { requestDigitalId } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { SessionNonceHeader } from "../../http/session-nonce";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { firstScreenNonce } from "./first-screen-nonce";
import { ACCOUNT_ON_DOUBLE_BLIND, noAccountOnDoubleBlind, nonceInHeader } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

// The two below are functions, not module constants: a zod call or an object spread at module level is
// code esbuild must keep, so their prose would stay in the Worker, which never reads it.

/** The request a page hands to navigator.credentials.get({digital: {requests}}). */
const digitalIdRequests = () =>
  z.object({
    requests: z
      .array(
        z.object({
          protocol: z.enum(["org-iso-mdoc", "openid4vp-v1-unsigned"]),
          data: z
            .record(z.string(), z.unknown())
            .check(
              z.describe(
                "The protocol's request: Annex C {deviceRequest, encryptionInfo}, or the OpenID4VP request object with its DCQL query.",
              ),
            ),
        }),
      )
      .check(
        z.describe(
          "Exactly the digital.requests array of the W3C Digital Credentials API; org-iso-mdoc is left out when age_required is above 99.",
        ),
      ),
  });

/** The refusals of both digital-ID operations (digital-id-response.ts's prose imports them). */
export const digitalIdRefusals = () =>
  ({
    403: {
      description: `The merchant did not accept DIGITAL_ID_VERIFIED for this session, or this deployment does not offer the way (no DIGITAL_ID_TRUST_ANCHORS); ${ACCOUNT_ON_DOUBLE_BLIND}`,
      codes: ["ASSURANCE_NOT_ACCEPTED", "DOUBLE_BLIND_REQUIRED"],
    },
    409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
    ...linkSession(),
  }) satisfies Responses;

/** The session's own limit (both digital-ID operations), counted by its Durable Object (docs/limits.md, "Per session"), not a catalogue limit. */
export const DIGITAL_ID_FAILURE_CAP =
  "Five answers to this session failed to verify (answers still being verified count as failed until they are not): no more requests or answers by wallet; Retry-After is the time left until the session expires, or 1 second while answers are still being verified.";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function digitalIdRequestDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "A request for the person's wallet (Digital Credentials API), with the nonce and no account",
    description:
      "Answers {requests}: pass it as navigator.credentials.get({digital: {requests}}). Asks for age_over_NN (NN = age_required, two digits) in the mDL (org.iso.18013.5.1) and the EU proof-of-age attestation (eu.europa.ec.av.1) through org-iso-mdoc (ISO/IEC TS 18013-7 Annex C), and for the same elements or an SD-JWT VC's age_equal_or_over.NN through openid4vp-v1-unsigned (OpenID4VP 1.0, response mode dc_api.jwt); nothing else (no name, birth date or portrait). " +
      "Each call makes a fresh request (its own nonce and response-encryption key, held by the session): only the latest one can be answered. No body. The nonce goes in X-Session-Nonce only.",
    headers: SessionNonceHeader,
    responses: { 200: { description: "The digital.requests array", data: digitalIdRequests() }, ...digitalIdRefusals() },
  };
}
