// Fail closed: the rules a deployment's settings must meet before it serves anyone, reported by setting
// name with the rule it breaks, never with the value. Run once per isolate, by the settings parse
// (src/config/settings.ts), whose `problems` the HTTP app, the scheduled run and the queues consult.

import { parseAgeTokenKeysSetting } from "./age-token-keys-setting";
import type { ReceiptKeySetting } from "./receipt-key";
import { includesTestAnchor, parseTrustAnchors } from "../digital-id";
import { TEST_IACA_SPKI_BASE64 } from "../digital-id/test-anchor";
import { parseCertificate, type Certificate } from "../digital-id/x509";
import { fromBase64, sameBytes } from "../lib/encoding";

export type ConfigProblem = { setting: string; problem: string };

/**
 * The secret values committed in wrangler.toml for development ([vars]): anyone can read them, so a
 * production deployment that still carries one refuses to serve. A test keeps this list in step with
 * wrangler.toml.
 */
export const DEVELOPMENT_VALUES: readonly string[] = [
  "dev-jwt-secret-not-for-production-0123456789abcdef",
  "dev-password-pepper-not-for-production",
  "ZGV2LXNlY3JldHMta2V5LW5vdC1mb3ItcHJvZHVjdGlvbg",
  "dev-identity-fingerprint-key-not-for-production",
  "dev-onfido-token",
  "dev-onfido-webhook-token",
  '{"kty":"OKP","crv":"Ed25519","x":"T9hx3AhdcF6_KRfkxu53wtYU1qs_dLYPjCXSzVg14kY","d":"tzXOkEwDTt5SFLnBNJwKz9ggw_ARjgwySSaXGUOHWP8","kid":"dev-receipts-1"}',
];

/**
 * A slice from the middle of each committed development token key (AGE_TOKEN_KEYS in wrangler.toml,
 * test/fixtures/dev-age-token-keys.json): a production setting that carries one of these keys, in any
 * arrangement, signs tokens anyone could forge. A test keeps them in step with the fixture.
 */
export const DEVELOPMENT_AGE_TOKEN_KEY_SLICES: readonly string[] = [
  "8p3qKTyLFNiBKpcCbu0+BcXSkuU7Xg6nGFLJpyxtc+phF2Ip",
  "ZlbLP/ud7iWMqaOiL42OtwnPkZx4IBKYbO39ei68612pq7V6",
];

/** The development receipt key's public half: a production key set must not publish it. */
const DEVELOPMENT_RECEIPT_X = "T9hx3AhdcF6_KRfkxu53wtYU1qs_dLYPjCXSzVg14kY";

/** 32 random bytes: the AES-256 key itself for SECRETS_KEY, and the least entropy for the HMAC secrets. */
export const SECRET_BYTES = 32;

/**
 * Reserved and local names (RFC 2606, RFC 6761) and the placeholders this repository ships: links and
 * mail under them reach no one.
 */
const PLACEHOLDER_DOMAIN = /(^|\.)(example(\.com|\.net|\.org)?|test|invalid|localhost|local)$/i;

const ENVIRONMENTS = new Set(["development", "production"]);
const PROVIDERS = new Set(["sandbox", "onfido"]);

/** The length in bytes of a base64 or base64url text, or 0 when it is neither. */
export function decodedLength(text: string): number {
  const body = text.replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/_-]+$/.test(body) || body.length % 4 === 1) return 0;
  return Math.floor((body.length * 3) / 4);
}

type RawSettings = Partial<Record<string, unknown>>;

const text = (env: RawSettings, name: string): string | undefined => {
  const value = env[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
};

function secretProblem(value: string | undefined, exactBytes: boolean): string | null {
  if (value === undefined) return "is missing";
  if (DEVELOPMENT_VALUES.includes(value)) return "is a committed development value";
  const bytes = decodedLength(value);
  if (exactBytes ? bytes !== SECRET_BYTES : bytes < SECRET_BYTES) {
    return `must be ${SECRET_BYTES} random bytes, base64-encoded (openssl rand -base64 32)`;
  }
  return null;
}

const isPlaceholderHost = (host: string) => PLACEHOLDER_DOMAIN.test(host.replace(/\.$/, ""));

function urlProblem(value: string | undefined): string | null {
  if (value === undefined) return "is missing";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:") return "must be an https URL";
  if (isPlaceholderHost(url.hostname)) return "is still a placeholder domain";
  return null;
}

function mailFromProblem(value: string | undefined): string | null {
  if (value === undefined) return "is missing";
  const match = /^[^\s@<>]+@([^\s@<>]+\.[^\s@<>]+)$/.exec(value);
  if (!match) return "is not an email address";
  if (isPlaceholderHost(match[1]!)) return "is still a placeholder domain";
  return null;
}

/**
 * Optional: without anchors production does not offer the digital-ID way. With them, every block must be
 * a certificate the verifier can use, and none the committed test root (its private key is public).
 */
function trustAnchorsProblem(value: string): string | null {
  let anchors: Certificate[];
  try {
    anchors = parseTrustAnchors(value);
  } catch {
    return "must be PEM CERTIFICATE blocks this service can read (P-256, P-384 or P-521 issuer roots)";
  }
  // By public key: a copy of the root with its signature or name changed still carries the public private key.
  return includesTestAnchor(anchors) ? "includes the committed test root (test/wallet/test-iaca.pem), whose private key is public" : null;
}

/**
 * The public key (x) of the committed development document signer of attestations (ATTESTATION_SIGNING_KEY
 * in wrangler.toml, test/fixtures/dev-attestation-signer.json): anyone holds its private half.
 */
export const DEVELOPMENT_ATTESTATION_SIGNER_X = "dDl9BbGi9LWLEe80ToKr8Dwp2-WKHQbv9BReqsYLrUE";

/**
 * The committed development attestation IACA root (the second certificate of ATTESTATION_CERTIFICATES in
 * wrangler.toml, test/fixtures/dev-attestation-signer.json), a public certificate: the document signer
 * under it has a committed private key, so production trusts it nowhere and issues under it never.
 */
export const DEVELOPMENT_ATTESTATION_IACA_DER_BASE64 =
  "MIICFDCCAbqgAwIBAgIPCTROdS2KYy0roSFp1oVyMAoGCCqGSM49BAMCMGkxCzAJBgNVBAYTAlhYMVowWAYDVQQDE1FURVNUIE9OTFkgLSBhZ2UtdmVyaWZpY2F0aW9uLXNlcnZpY2UgYXR0ZXN0YXRpb24gSUFDQSAobmV2ZXIgdHJ1c3QgaW4gcHJvZHVjdGlvbikwHhcNMjYwMTAxMDAwMDAwWhcNNDYwMTAxMDAwMDAwWjBpMQswCQYDVQQGEwJYWDFaMFgGA1UEAxNRVEVTVCBPTkxZIC0gYWdlLXZlcmlmaWNhdGlvbi1zZXJ2aWNlIGF0dGVzdGF0aW9uIElBQ0EgKG5ldmVyIHRydXN0IGluIHByb2R1Y3Rpb24pMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE+A+QYcOlUDo6nBFRJblfqz31p5+axlqeG+wBKNPcC/i03/7B9UERA/FUbhKMKRC9lcEnrdPahQ6YI5qAdbAFCaNFMEMwEgYDVR0TAQH/BAgwBgEB/wIBADAOBgNVHQ8BAf8EBAMCAQYwHQYDVR0OBBYEFEZ1+0PF0cj7H0+zFrEH/e/4YRdBMAoGCCqGSM49BAMCA0gAMEUCIGFdOBYS+CcKvT1e4v99vsnswisEVifwQcZsGzw6uDQpAiEA3kUsoY1z/OV0/KH/5mgEzU0juAysWmFRe+s/PMtT4oM=";

/** The public keys (SPKI) anyone could issue under: the committed test root's and the development attestation IACA's. */
const committedRootKeys = () => [
  fromBase64(TEST_IACA_SPKI_BASE64),
  parseCertificate(fromBase64(DEVELOPMENT_ATTESTATION_IACA_DER_BASE64)).spki,
];

/** Whether any certificate carries the public key of a committed root (compared by key, not bytes). */
const holdsCommittedRootKey = (certificates: { spki: Uint8Array }[]) =>
  certificates.some((certificate) => committedRootKeys().some((key) => sameBytes(certificate.spki, key)));

/**
 * ATTESTATION_SIGNING_KEY and ATTESTATION_CERTIFICATES in production: both or neither (neither: no
 * issuance). Never the committed development signer, nor any certificate with the public key of the
 * committed test IACA root or the development attestation IACA (compared by public key, so a re-encoded
 * or re-issued certificate of the same key is refused too). Whether the key imports and matches its certificate is asynchronous (Web Crypto):
 * src/domain/attestations/signer.ts answers that with 503 at first use.
 */
function attestationSignerProblems(key: string | undefined, certificates: string | undefined): ConfigProblem[] {
  if (key === undefined && certificates === undefined) return [];
  if (key === undefined) return [{ setting: "ATTESTATION_SIGNING_KEY", problem: "is missing while ATTESTATION_CERTIFICATES is set" }];
  if (certificates === undefined)
    return [{ setting: "ATTESTATION_CERTIFICATES", problem: "is missing while ATTESTATION_SIGNING_KEY is set" }];
  const problems: ConfigProblem[] = [];
  let jwk: { x?: unknown } | null = null;
  try {
    jwk = JSON.parse(key) as { x?: unknown };
  } catch {
    problems.push({ setting: "ATTESTATION_SIGNING_KEY", problem: "is not a JSON Web Key" });
  }
  if (jwk?.x === DEVELOPMENT_ATTESTATION_SIGNER_X)
    problems.push({ setting: "ATTESTATION_SIGNING_KEY", problem: "is the committed development key" });
  let parsed: Certificate[];
  try {
    parsed = parseTrustAnchors(certificates);
  } catch {
    return [...problems, { setting: "ATTESTATION_CERTIFICATES", problem: "must be PEM CERTIFICATE blocks this service can read" }];
  }
  if (holdsCommittedRootKey(parsed)) {
    problems.push({
      setting: "ATTESTATION_CERTIFICATES",
      problem:
        "includes a committed test root (test/wallet/test-iaca.pem or the development attestation IACA), under which anyone can issue",
    });
  }
  return problems;
}

/** Development's trust anchors also list the development attestation IACA, which production must not trust. */
function developmentIacaProblem(value: string): string | null {
  return holdsCommittedRootKey(parseTrustAnchors(value))
    ? "includes the development attestation IACA, under whose document signer anyone can issue"
    : null;
}

/** The per-account limits an operator may set (their production values: src/domain/limits/account-limits.ts). */
export const ACCOUNT_LIMIT_SETTINGS = [
  "COMPLETIONS_PER_DAY",
  "KYC_SDK_TOKENS_PER_HOUR",
  "KYC_CHECKS_PER_DAY",
  "KYC_APPLICANT_UPDATES_PER_DAY",
  "PASSWORD_CHANGES_PER_HOUR",
  "VERIFICATION_MAILS_PER_DAY",
  "RESET_MAILS_PER_DAY",
  "EMAIL_CHANGE_MAILS_PER_DAY",
  "SESSION_OPENS_PER_MINUTE",
  "AGE_TOKENS_PER_DAY",
  "ATTESTATION_BATCHES_PER_DAY",
] as const;

/**
 * AGE_TOKEN_KEYS in production: optional (unset, no anonymous age tokens are offered), else a JSON array
 * of {age_over, current, previous?} with none of the development keys. Whether each key imports as
 * RSA-2048 is asynchronous (Web Crypto), so src/domain/age-tokens answers that with 503 at first use.
 */
function ageTokenKeysProblem(value: string): string | null {
  const parsed = parseAgeTokenKeysSetting(value);
  if ("problem" in parsed) return parsed.problem;
  // As the keys are read (src/domain/age-tokens/token-keys.ts): whitespace inside a key is ignored.
  const keys = parsed.entries.flatMap((entry) => (entry.previous === undefined ? [entry.current] : [entry.current, entry.previous]));
  const compact = keys.map((key) => key.replace(/\s+/g, ""));
  if (compact.some((key) => DEVELOPMENT_AGE_TOKEN_KEY_SLICES.some((slice) => key.includes(slice))))
    return "carries a committed development key";
  return null;
}

const positiveInteger = (value: string | undefined) => value === undefined || /^[1-9]\d*$/.test(value);

/** Every rule a configuration breaks; empty when it may serve. Development needs only a known ENVIRONMENT. */
/** `receiptKeys`: the receipt key settings as the settings parse read them (src/config/receipt-key.ts). */
export function configProblems(
  env: RawSettings,
  receiptKeys: { current: ReceiptKeySetting; previous: ReceiptKeySetting },
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (setting: string, problem: string | null) => {
    if (problem) problems.push({ setting, problem });
  };
  const environment = text(env, "ENVIRONMENT");
  // Anything but the two known names refuses to serve: a typo must not fall back to development defaults.
  if (environment === undefined || !ENVIRONMENTS.has(environment)) {
    add("ENVIRONMENT", "must be development or production");
    return problems;
  }
  if (environment !== "production") return problems;

  const provider = text(env, "PROVIDER");
  if (provider === "sandbox") add("PROVIDER", "is the development sandbox");
  else if (provider === undefined || !PROVIDERS.has(provider)) add("PROVIDER", "must be onfido");

  add("JWT_SECRET", secretProblem(text(env, "JWT_SECRET"), false));
  add("PASSWORD_PEPPER", secretProblem(text(env, "PASSWORD_PEPPER"), false));
  add("SECRETS_KEY", secretProblem(text(env, "SECRETS_KEY"), true));
  // Never rotated: a new key would change every fingerprint and free every document (docs/limits.md).
  add("IDENTITY_FINGERPRINT_KEY", secretProblem(text(env, "IDENTITY_FINGERPRINT_KEY"), false));
  // A previous secret (kept during a rotation) is held to the same rules as the current one.
  for (const [name, exact] of [
    ["JWT_SECRET_PREVIOUS", false],
    ["PASSWORD_PEPPER_PREVIOUS", false],
    ["SECRETS_KEY_PREVIOUS", true],
  ] as const) {
    if (text(env, name) !== undefined) add(name, secretProblem(text(env, name), exact));
  }
  if (text(env, "JWT_SECRET_PREVIOUS") !== undefined) {
    const rotatedAt = text(env, "JWT_SECRET_ROTATED_AT");
    if (rotatedAt === undefined || Number.isNaN(Date.parse(rotatedAt))) {
      add("JWT_SECRET_ROTATED_AT", "must be the ISO time of the rotation while JWT_SECRET_PREVIOUS is set");
    }
  }

  for (const [name, setting] of [
    ["RECEIPT_SIGNING_KEY", receiptKeys.current],
    ["RECEIPT_SIGNING_KEY_PREVIOUS", receiptKeys.previous],
  ] as const) {
    if (setting.problem) add(name, setting.problem);
    else if (setting.key?.x === DEVELOPMENT_RECEIPT_X) add(name, "is the committed development key");
    else if (!setting.key && name === "RECEIPT_SIGNING_KEY") add(name, "is missing");
  }

  add("APP_URL", urlProblem(text(env, "APP_URL")));
  // Optional (Cloudflare's resolver by default), but never a plain-http or placeholder resolver.
  if (text(env, "DNS_OVER_HTTPS_URL") !== undefined) add("DNS_OVER_HTTPS_URL", urlProblem(text(env, "DNS_OVER_HTTPS_URL")));
  add("MAIL_FROM", mailFromProblem(text(env, "MAIL_FROM")));
  const ageTokenKeys = text(env, "AGE_TOKEN_KEYS");
  if (ageTokenKeys !== undefined) add("AGE_TOKEN_KEYS", ageTokenKeysProblem(ageTokenKeys));

  if (provider === "onfido") {
    add("ONFIDO_API_URL", urlProblem(text(env, "ONFIDO_API_URL")));
    for (const name of ["ONFIDO_API_TOKEN", "ONFIDO_WEBHOOK_TOKEN"]) {
      const value = text(env, name);
      if (value === undefined) add(name, "is missing");
      else if (DEVELOPMENT_VALUES.includes(value)) add(name, "is a committed development value");
    }
  }

  const retirementDays = text(env, "AGE_TOKEN_RETIREMENT_DAYS");
  if (retirementDays !== undefined && !positiveInteger(retirementDays)) add("AGE_TOKEN_RETIREMENT_DAYS", "must be a positive whole number");

  const trustAnchors = text(env, "DIGITAL_ID_TRUST_ANCHORS");
  if (trustAnchors !== undefined)
    add("DIGITAL_ID_TRUST_ANCHORS", trustAnchorsProblem(trustAnchors) ?? developmentIacaProblem(trustAnchors));
  problems.push(...attestationSignerProblems(text(env, "ATTESTATION_SIGNING_KEY"), text(env, "ATTESTATION_CERTIFICATES")));

  for (const name of [
    "SESSION_TTL_SECONDS",
    "CALLBACK_LOG_RETENTION_DAYS",
    "SESSION_LOG_RETENTION_DAYS",
    "CALLBACK_STALL_SECONDS",
    "PENDING_SESSIONS_MAX",
    // The per-account limits (src/domain/limits/account-limits.ts; a test keeps this list in step with it).
    ...ACCOUNT_LIMIT_SETTINGS,
  ]) {
    if (!positiveInteger(text(env, name))) add(name, "must be a positive whole number");
  }
  return problems;
}
