// Age from a digital ID in the person's wallet (docs/api-contract.md §Digital ID), the core the routes and the session's
// Durable Object use: make a request for the Digital Credentials API (ISO/IEC TS 18013-7 Annex C and
// OpenID4VP 1.0), check the wallet's answer (issuer chain to the trust anchors, validity, digests,
// device or key binding to this request and origin) and decide the outcome; parse the trust anchors and
// tell whether they include the committed test root (which production refuses).
export { createDigitalIdRequest, type CreateDigitalIdRequestInput, type DigitalCredentialRequest } from "./request";
export { verifyDigitalIdResponse, DigitalIdResponseBody, type VerifyDigitalIdContext } from "./response";
export { parseTrustAnchors } from "./certificate-chain";
export { includesTestAnchor } from "./test-anchor";
export { PendingDigitalIdRequest } from "./pending";
export type { DigitalIdOutcome } from "./age-outcome";
export { ANNEX_C_PROTOCOL } from "./annex-c";
export { OPENID4VP_PROTOCOL } from "./openid4vp";
export type { StatusListPort, CachedStatusList } from "./status-list";
