// A production configuration that passes every fail-closed rule (src/config/problems.ts): fresh random
// secrets, https on a real-looking domain, Onfido settings. Tests override one setting at a time.
import { env } from "cloudflare:test";
import { toBase64 } from "../../src/lib/encoding";

const random32 = () => toBase64(crypto.getRandomValues(new Uint8Array(32)));

export const productionSecrets = {
  JWT_SECRET: random32(),
  PASSWORD_PEPPER: random32(),
  SECRETS_KEY: random32(),
  IDENTITY_FINGERPRINT_KEY: random32(),
  // A key made for these tests only (not the development key in wrangler.toml).
  RECEIPT_SIGNING_KEY:
    '{"kty":"OKP","crv":"Ed25519","x":"ITN7nOrMZH04MnfJo_DWoPK_CRx0D8q8HLCcWqFsTTM","d":"XMS76fZxfOg7ijEzkKzLGFIZ2C6ok7LfE22FEXqbHrE","kid":"prod-test-2026"}',
};

export const productionEnv = (overrides: Record<string, unknown> = {}): Env =>
  ({
    ...env,
    ENVIRONMENT: "production",
    PROVIDER: "onfido",
    ONFIDO_API_URL: "https://api.eu.onfido.com/v3.6",
    ONFIDO_API_TOKEN: "api_live.production-token",
    ONFIDO_WEBHOOK_TOKEN: "production-webhook-token",
    APP_URL: "https://age.merchant-verify.eu",
    MAIL_FROM: "no-reply@merchant-verify.eu",
    // The development trust anchors and token keys are refused in production; without them the two
    // 1.2.0 ways are not offered. Tests that need them set their own.
    DIGITAL_ID_TRUST_ANCHORS: undefined,
    AGE_TOKEN_KEYS: undefined,
    // Likewise the development attestation signer: without it no attestations are issued.
    ATTESTATION_SIGNING_KEY: undefined,
    ATTESTATION_CERTIFICATES: undefined,
    ...productionSecrets,
    ...overrides,
  }) as Env;
