// Settings the code reads that wrangler.toml does not declare (so `npm run types` cannot list them):
// the previous secrets an operator sets only during a rotation (docs/operations.md).
declare namespace Cloudflare {
  interface Env {
    SECRETS_KEY_PREVIOUS?: string;
    JWT_SECRET_PREVIOUS?: string;
    /** ISO time JWT_SECRET was rotated: JWT_SECRET_PREVIOUS is accepted until one token lifetime after it. */
    JWT_SECRET_ROTATED_AT?: string;
    PASSWORD_PEPPER_PREVIOUS?: string;
    /** DNS over HTTPS (JSON) resolver for the callback host check; production defaults to Cloudflare's (docs/configuration.md). */
    DNS_OVER_HTTPS_URL?: string;
    /** The previous receipt key's public JWK: still published in the JWKS after a rotation (docs/receipts.md). */
    RECEIPT_SIGNING_KEY_PREVIOUS?: string;
    /** Days a retired age-token key's spent records are kept (default 30, docs/double-blind.md). */
    AGE_TOKEN_RETIREMENT_DAYS?: string;
  }
}
