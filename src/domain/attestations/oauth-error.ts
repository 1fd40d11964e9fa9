// The OAuth 2.0 error answers of the issuance endpoints (docs/attestations.md): /token (RFC 6749 §5.2),
// /credential and /nonce (OpenID4VCI 1.0 §8.3.1.2, RFC 6750 §3.1). A wallet's OAuth library reads these,
// so they are `{error, error_description}`, not the service's error envelope.
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "invalid_token"
  | "invalid_proof"
  | "invalid_nonce"
  | "invalid_credential_request"
  | "unsupported_credential_configuration";

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 = 400,
  ) {
    super(description);
  }
}

export const oauthError = (error: OAuthErrorCode, description: string, status: 400 | 401 = 400) =>
  new OAuthError(error, description, status);
