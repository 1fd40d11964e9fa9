// The OpenAPI prose of the proof-of-age attestation routes under /api (tag Attestations). Called only
// behind `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file). The
// OpenID4VCI endpoints themselves (/token, /nonce, /credential, /authorize, the metadata) are outside
// /api and described in docs/attestations.md.
import { AuthorizationApproval, CredentialOfferOutput } from "./schemas";
import type { OperationDoc } from "../../http/openapi-meta";

const WHO =
  "The signed-in account must have a verified identity (403 KYC_REQUIRED) and a verified date of birth making it at least 18 today (403 ATTESTATION_NOT_ALLOWED); an account with a passkey confirms with a fresh assertion (403 PASSKEY_REQUIRED without one). " +
  "Each call counts one batch (up to 30 attestations) against the account's daily limit (ATTESTATION_BATCHES_PER_DAY, 3 in production), before anything is issued. ";

const refusals = {
  400: { description: "The passkey assertion did not verify", codes: ["PASSKEY_INVALID"] },
  403: {
    description:
      "No verified identity (KYC_REQUIRED), a verified age under 18 (ATTESTATION_NOT_ALLOWED), or an account with a passkey asking without a fresh assertion (PASSKEY_REQUIRED)",
    codes: ["KYC_REQUIRED", "ATTESTATION_NOT_ALLOWED", "PASSKEY_REQUIRED"],
  },
  404: { description: "This deployment issues no attestations", codes: ["NOT_FOUND"] },
} as const;

export function createOfferDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "A credential offer of proof-of-age attestations for the signed-in person's wallet (pre-authorized code)",
    description:
      "Makes an OpenID4VCI 1.0 credential offer for the EU proof-of-age attestation (mdoc eu.europa.ec.av.1, age_over_18), with a single-use pre-authorized code and a 6-digit transaction code. " +
      "Show av_uri (the EU blueprint's link) or credential_offer_uri as a QR code or a link, and tx_code as digits for the person to type in their wallet. The offer lives 5 minutes, is redeemed once at POST /token, and dies after 5 wrong transaction codes. " +
      WHO +
      "The offer names no account: the daily count is all the service keeps. docs/attestations.md.",
    responses: { 201: { description: "The offer", data: CredentialOfferOutput }, ...refusals },
  };
}

export function approveAuthorizationDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "Approve a wallet's authorization request for proof-of-age attestations (authorization code with PKCE)",
    description:
      "Called by the service's own consent page (GET /authorize) once the person has signed in and agreed: answers where to send the browser, the wallet's redirect_uri with a code (60 seconds, single use, bound to that redirect_uri and to the S256 code_challenge) and the state. " +
      "The request's parameters are those of GET /authorize, checked again (422 VALIDATION_FAILED: response_type code, scope proof_of_age, S256 only, redirect_uri https with a domain name or IP address as its host, or a wallet's own scheme in reverse-domain form, RFC 8252 §7.1, such as eu.europa.ec.euidi://authorization). " +
      WHO +
      "docs/attestations.md.",
    responses: {
      200: { description: "Where the browser goes with the code", data: AuthorizationApproval },
      ...refusals,
      422: { description: "The authorization request is not one this service answers", codes: ["VALIDATION_FAILED"] },
    },
  };
}

export function readIacaDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "The IACA root certificate of the proof-of-age attestations this service issues",
    description:
      "The root the attestations' document signer chains to, as a PEM certificate: what a trusted list or a relying party adds to its trust anchors to accept this service's attestations. Public and cacheable. docs/attestations.md.",
    responses: {
      200: { description: "The IACA root (PEM)", content: { type: "application/pem-certificate-chain", schema: { type: "string" } } },
      404: { description: "This deployment issues no attestations", codes: ["NOT_FOUND"] },
    },
  };
}
