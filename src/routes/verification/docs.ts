// The OpenAPI prose of the Verification area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "zod";
import { PasskeyRequestOptions } from "../../domain/passkeys";
import { MAX_IDEMPOTENCY_KEY_LENGTH, OpenedSession } from "../../domain/verification";
import type { OperationDoc, Responses } from "../../http/openapi-meta";
import { SessionNonceHeader } from "../../http/session-nonce";
import { HolderSessionRequest, PolledSession, SessionPreview } from "../../session/session-view";

const tag = "Verification";
const unknownSession = { 404: { description: "Unknown session, another account's session, or a wrong nonce", codes: ["NOT_FOUND"] } } satisfies Responses;

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
        .string()
        .max(MAX_IDEMPOTENCY_KEY_LENGTH)
        .optional()
        .describe(
          `Up to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters, unique per request (a UUID): scoped to the API key that sends it (a test key's answer never comes back to a live key), kept 24 hours, the stored answer sealed. Same key and other body: 422 IDEMPOTENCY_KEY_REUSED; first request still running: 409 IDEMPOTENCY_IN_PROGRESS.`,
        ),
    }),
    responses: {
      201: { description: "Opened", data: OpenedSession },
      409: { description: "The first request with this Idempotency-Key is still in flight", codes: ["IDEMPOTENCY_IN_PROGRESS"] },
      422: { description: "Invalid body, or an Idempotency-Key reused with another body", codes: ["VALIDATION_FAILED", "IDEMPOTENCY_KEY_REUSED"] },
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
      "Never shows the merchant's reference or metadata; return_url and locale are the merchant's, when it gave them. CORS-enabled for any origin (GET with X-Session-Nonce only, never credentials), so the merchant's drop-in can read the status from the checkout page (docs/drop-in.md). Cheap by design (one read of the session's Durable Object, no database query), so it is not rate-limited: the 256-bit nonce cannot be guessed.",
    headers: SessionNonceHeader,
    responses: {
      200: { description: "The preview", data: SessionPreview },
      // No credential is needed here; an id of "." is resolved by URL rules onto the merchant's poll route.
      401: { description: "Only for an id that URL normalisation turns into another route", codes: ["UNAUTHORIZED"] },
      ...unknownSession,
    },
  };
}

export function readSessionRequestDoc(): OperationDoc {
  return {
    tag,
    summary: "What a session asks, for the end user's app (needs the nonce)",
    responses: { 200: { description: "The request", data: HolderSessionRequest }, ...unknownSession },
  };
}

export function declineSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Decline as the end user, without an account",
    description:
      "\"Not now\" from the first screen: the session becomes DENIED (assurance null, holder_binding null: no identity was checked) and the merchant's callback is sent. Needs only the nonce (header X-Session-Nonce, or ?nonce=); no account is involved or recorded, so no per-account limit applies (the 256-bit nonce cannot be guessed, and a session is declined at most once).",
    headers: SessionNonceHeader,
    responses: {
      200: { description: "Declined", data: PolledSession },
      409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
      ...unknownSession,
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
    },
  };
}

export function completeSessionDoc(): OperationDoc {
  return {
    tag,
    summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
    responses: {
      200: { description: "Resolved", data: PolledSession },
      400: { description: "The passkey assertion did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
      403: {
        description: "No verified identity yet, or a consent without a passkey assertion from an account that has a passkey or for a session that requires one",
        codes: ["KYC_REQUIRED", "PASSKEY_REQUIRED"],
      },
      409: {
        description: "Already answered or expired; or the account's identity document already verifies another account (IDENTITY_ALREADY_VERIFIED)",
        codes: ["SESSION_NOT_PENDING", "IDENTITY_ALREADY_VERIFIED"],
      },
      ...unknownSession,
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
      ...unknownSession,
    },
  };
}
