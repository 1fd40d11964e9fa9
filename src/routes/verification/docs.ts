// The OpenAPI prose of the Verification area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { PasskeyRequestOptions } from "../../domain/passkeys";
import { MAX_IDEMPOTENCY_KEY_LENGTH, OpenedSession } from "../../domain/verification";
import type { OperationDoc, Responses } from "../../http/openapi-meta";
import { SessionNonceHeader } from "../../http/session-nonce";
import { HolderSessionRequest, PolledSession, SessionPreview } from "../../session/session-view";

const tag = "Verification";
const unknownSession = {
  404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] },
} satisfies Responses;
/** The routes the link's holder calls with its nonce: a link its merchant withdrew says so (docs/end-user-apps.md). */
const withdrawnLink = {
  410: {
    description:
      "The link's request was withdrawn by the website that made it and can no longer be answered (only for the link's own nonce; nothing else is said)",
    codes: ["SESSION_WITHDRAWN"],
  },
} satisfies Responses;
const linkSession = () => ({ ...unknownSession, ...withdrawnLink }) satisfies Responses;

/** Every route the person's page calls: on a double-blind session, a request with an Authorization header is refused before its credential is checked (docs/double-blind.md). */
const ACCOUNT_ON_DOUBLE_BLIND =
  "A request with an Authorization header on a double-blind session (DOUBLE_BLIND_REQUIRED), refused before the credential is checked: nothing of an account is read";
const accountOnDoubleBlind = { 403: { description: ACCOUNT_ON_DOUBLE_BLIND, codes: ["DOUBLE_BLIND_REQUIRED"] } } satisfies Responses;

export function openSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Open a verification session (spec endpoint 4); server-side only",
    description:
      "Hand only session_id and nonce (or verification_url) to the browser. callback_url and return_url: absolute https, at most 2048 characters, no credentials, not a private, loopback or link-local IP literal (development also allows http://localhost and http://127.0.0.1). " +
      "A test key (svc_sk_test_…) opens a test session (livemode false). Every resolved session carries a receipt: a JWS verifiable with the keys at /.well-known/jwks.json (docs/receipts.md). " +
      "With Idempotency-Key, a retry with the same body within 24 hours answers the first response again (header Idempotent-Replayed: true) and opens nothing.",
    headers: z.object({
      "Idempotency-Key": z
        .optional(z.string().check(z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH)))
        .check(
          z.describe(
            `Up to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters, unique per request (a UUID): scoped to the API key that sends it (a test key's answer never comes back to a live key), kept 24 hours, the stored answer sealed. Same key and other body: 422 IDEMPOTENCY_KEY_REUSED; first request still running: 409 IDEMPOTENCY_IN_PROGRESS.`,
          ),
        ),
    }),
    responses: {
      201: { description: "Opened", data: OpenedSession },
      409: { description: "The first request with this Idempotency-Key is still in flight", codes: ["IDEMPOTENCY_IN_PROGRESS"] },
      422: {
        description: "Invalid body, or an Idempotency-Key reused with another body",
        codes: ["VALIDATION_FAILED", "IDEMPOTENCY_KEY_REUSED"],
      },
    },
  };
}

export function pollSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Poll a session (spec endpoint 5): the fallback when a callback was missed",
    responses: { 200: { description: "The polled session", data: PolledSession }, ...unknownSession },
  };
}

export function previewSessionDoc(): OperationDoc {
  return {
    tag,
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

export function readSessionRequestDoc(): OperationDoc {
  return {
    tag,
    summary: "What a session asks, for the end user's app (needs the nonce)",
    description:
      "Signed in (Bearer) with the nonce: the request with meets_age_required from the account's verified date of birth. A double-blind session is never read with an account (403 DOUBLE_BLIND_REQUIRED): its page reads the preview alone.",
    responses: { 200: { description: "The request", data: HolderSessionRequest }, ...accountOnDoubleBlind, ...linkSession() },
  };
}

export function declineSessionDoc(): OperationDoc {
  return {
    tag,
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

export function answerTestSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Test mode: answer a test session with a chosen outcome, without a browser or an identity check",
    description:
      "With a test key (X-API-Key svc_sk_test_…) for your own test sessions, or with the session's nonce in the body (the /verify page's test chooser, no account). " +
      "A live session, a live key, another account's session or a wrong nonce: 404. The callback and poll then carry the outcome with livemode false, holder_binding null and a receipt for APPROVED and DENIED.",
    security: "apiKey",
    responses: {
      200: { description: "Resolved", data: PolledSession },
      401: { description: "An X-API-Key that is not a valid key", codes: ["UNAUTHORIZED"] },
      409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
      404: { description: "No test session with this id for this key or nonce", codes: ["NOT_FOUND"] },
      ...withdrawnLink,
    },
  };
}

export function completeSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
    description:
      "Signed in (Bearer): the account answers; a double-blind session refuses any Authorization header (403 DOUBLE_BLIND_REQUIRED) before the credential is checked or anything of the account is read or counted. " +
      "Anonymous (no Authorization header at all): {nonce, consent: true, age_token} approves with assurance KYC_VERIFIED and holder_binding ANONYMOUS_TOKEN, double-blind or not, and spends the token; " +
      "without age_token the 401 carries WWW-Authenticate: PrivateToken challenge=…, token-key=… (RFC 9577 §2.1) for the current keys that meet age_required. " +
      "Every refusal leaves the session PENDING and the token unspent. docs/double-blind.md.",
    responses: {
      200: { description: "Resolved", data: PolledSession },
      400: { description: "The passkey assertion did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
      401: {
        description:
          "No valid Bearer token, and no age_token: with WWW-Authenticate: PrivateToken when the nonce opens a session that tokens can approve",
        codes: ["UNAUTHORIZED"],
      },
      403: {
        description:
          "No verified identity yet, or a consent without a passkey assertion from an account that has a passkey or for a session that requires one, or an age token for a session that requires a passkey (PASSKEY_REQUIRED); an account's approval of a double-blind session (DOUBLE_BLIND_REQUIRED); a way the merchant does not accept (ASSURANCE_NOT_ACCEPTED)",
        codes: ["KYC_REQUIRED", "PASSKEY_REQUIRED", "DOUBLE_BLIND_REQUIRED", "ASSURANCE_NOT_ACCEPTED"],
      },
      409: {
        description:
          "Already answered or expired; or the account's identity document already verifies another account (IDENTITY_ALREADY_VERIFIED); or the age token was already spent (AGE_TOKEN_SPENT)",
        codes: ["SESSION_NOT_PENDING", "IDENTITY_ALREADY_VERIFIED", "AGE_TOKEN_SPENT"],
      },
      422: {
        description:
          "An age token this service did not issue for its own challenge under a published key (AGE_TOKEN_INVALID), or for a threshold below age_required (AGE_TOKEN_INSUFFICIENT); age_token with an Authorization header, or without consent: true (VALIDATION_FAILED)",
        codes: ["AGE_TOKEN_INVALID", "AGE_TOKEN_INSUFFICIENT", "VALIDATION_FAILED"],
      },
      ...linkSession(),
    },
  };
}

export function passkeyApprovalOptionsDoc(): OperationDoc {
  return {
    tag,
    summary: "Options for navigator.credentials.get() to approve this session with a passkey",
    description:
      "The challenge is single use, valid 5 minutes and bound to this session (by its nonce: no session id is stored with it) and this account; send the resulting assertion with consent: true to /complete.",
    responses: {
      200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
      ...accountOnDoubleBlind,
      ...linkSession(),
    },
  };
}

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

const digitalIdRefusals = () =>
  ({
    403: {
      description: `The merchant did not accept DIGITAL_ID_VERIFIED for this session, or this deployment does not offer the way (no DIGITAL_ID_TRUST_ANCHORS); ${ACCOUNT_ON_DOUBLE_BLIND}`,
      codes: ["ASSURANCE_NOT_ACCEPTED", "DOUBLE_BLIND_REQUIRED"],
    },
    409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
    ...linkSession(),
  }) satisfies Responses;

/** The session's own limit, counted by its Durable Object (docs/limits.md, "Per session"), not a catalogue limit. */
export const DIGITAL_ID_FAILURE_CAP =
  "Five answers to this session failed to verify (answers still being verified count as failed until they are not): no more requests or answers by wallet; Retry-After is the time left until the session expires, or 1 second while answers are still being verified.";

export function digitalIdRequestDoc(): OperationDoc {
  return {
    tag,
    summary: "A request for the person's wallet (Digital Credentials API), with the nonce and no account",
    description:
      "Answers {requests}: pass it as navigator.credentials.get({digital: {requests}}). Asks for age_over_NN (NN = age_required, two digits) in the mDL (org.iso.18013.5.1) and the EU proof-of-age attestation (eu.europa.ec.av.1) through org-iso-mdoc (ISO/IEC TS 18013-7 Annex C), and for the same elements or an SD-JWT VC's age_equal_or_over.NN through openid4vp-v1-unsigned (OpenID4VP 1.0, response mode dc_api.jwt); nothing else (no name, birth date or portrait). " +
      "Each call makes a fresh request (its own nonce and response-encryption key, held by the session): only the latest one can be answered. No body. The nonce goes in X-Session-Nonce only.",
    headers: SessionNonceHeader,
    responses: { 200: { description: "The digital.requests array", data: digitalIdRequests() }, ...digitalIdRefusals() },
  };
}

export function digitalIdResponseDoc(): OperationDoc {
  return {
    tag,
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
