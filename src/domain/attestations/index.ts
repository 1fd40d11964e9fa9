// Proof-of-age attestations (docs/attestations.md): the service as an attestation provider of the EU
// age-verification blueprint, issuing the eu.europa.ec.av.1 mdoc over OpenID4VCI 1.0 (pre-authorized
// code with a transaction code, or authorization code with PKCE) to a verified adult's wallet.
export { ATTESTATION_MIN_AGE, authorizeBatch, type AttestationHolder } from "./batch-authorization";
export { checkAuthorizationRequest, issueAuthorizationCode, redirectUriProblem, type AuthorizationRequest } from "./authorization-code";
export { issueCredentials } from "./credential-issuance";
export { createGrant, GRANT_LIFETIME_SECONDS, MAX_TX_CODE_ATTEMPTS } from "./grants";
export {
  authorizationServerMetadata,
  BATCH_SIZE,
  credentialIssuerMetadata,
  ISSUANCE_PATHS,
  PRE_AUTHORIZED_GRANT,
  PROOF_OF_AGE_CONFIGURATION,
} from "./metadata";
export { OAuthError, oauthError } from "./oauth-error";
export { createCredentialOffer, TX_CODE_LENGTH, type CredentialOfferAnswer } from "./offers";
export { ATTESTATION_VALIDITY_DAYS, PROOF_OF_AGE_DOCTYPE, PROOF_OF_AGE_NAMESPACE } from "./proof-of-age-mdoc";
export { PROOF_IAT_WINDOW_SECONDS, PROOF_TYPE } from "./proofs";
export {
  attestationSigner,
  ATTESTATION_CERTIFICATES_SETTING,
  ATTESTATION_SIGNING_KEY_SETTING,
  pemBlocks,
  type AttestationSigner,
} from "./signer";
export { exchangeGrant, type TokenAnswer } from "./token-exchange";
