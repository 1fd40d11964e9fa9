// What a wallet reads before it asks (docs/attestations.md): the credential issuer metadata (OpenID4VCI
// 1.0 §12.2) and the authorization server metadata (RFC 8414), both rooted at APP_URL, which is the
// credential issuer and its own authorization server. One credential configuration, proof_of_age: the EU
// proof-of-age mdoc, bound to a P-256 device key proven by a JWT (EU age-verification blueprint, Annex A).
import { PROOF_OF_AGE_DOCTYPE, PROOF_OF_AGE_NAMESPACE } from "./proof-of-age-mdoc";

export const PROOF_OF_AGE_CONFIGURATION = "proof_of_age";
export const PRE_AUTHORIZED_GRANT = "urn:ietf:params:oauth:grant-type:pre-authorized_code";
/** One attestation per proof, up to this many per credential request. */
export const BATCH_SIZE = 30;

export const ISSUANCE_PATHS = { authorize: "/authorize", token: "/token", nonce: "/nonce", credential: "/credential" } as const;

export function credentialIssuerMetadata(issuer: string) {
  return {
    credential_issuer: issuer,
    credential_endpoint: `${issuer}${ISSUANCE_PATHS.credential}`,
    nonce_endpoint: `${issuer}${ISSUANCE_PATHS.nonce}`,
    batch_credential_issuance: { batch_size: BATCH_SIZE },
    display: [{ name: "Age verification service", locale: "en" }],
    credential_configurations_supported: {
      [PROOF_OF_AGE_CONFIGURATION]: {
        format: "mso_mdoc",
        doctype: PROOF_OF_AGE_DOCTYPE,
        scope: PROOF_OF_AGE_CONFIGURATION,
        cryptographic_binding_methods_supported: ["cose_key"],
        // ES256 as its COSE number (-7), as mso_mdoc configurations name it (OpenID4VCI 1.0 Appendix A.2.2).
        credential_signing_alg_values_supported: [-7],
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ["ES256"] } },
        credential_metadata: {
          display: [{ name: "Proof of age (18+)", locale: "en" }],
          claims: [{ path: [PROOF_OF_AGE_NAMESPACE, "age_over_18"], display: [{ name: "Over 18", locale: "en" }] }],
        },
      },
    },
  };
}

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${ISSUANCE_PATHS.authorize}`,
    token_endpoint: `${issuer}${ISSUANCE_PATHS.token}`,
    response_types_supported: ["code"],
    grant_types_supported: ["authorization_code", PRE_AUTHORIZED_GRANT],
    code_challenge_methods_supported: ["S256"],
    // Wallets are public clients, known by no registration.
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [PROOF_OF_AGE_CONFIGURATION],
    "pre-authorized_grant_anonymous_access_supported": true,
  };
}
