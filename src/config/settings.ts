// The service's settings (docs/api-contract.md §Development), parsed once per isolate from the bindings into one typed object:
// every other file reads `ctx.settings`, never `env`. The same parse collects the rules a production
// deployment breaks (src/config/problems.ts), so the fail-closed check and the code read one answer.
// Secrets are read here only, never logged.
import { ApiError } from "../errors";
import { ACCOUNT_LIMIT_SETTINGS, configProblems, type ConfigProblem } from "./problems";
import { parseReceiptKey, type ReceiptKeySetting } from "./receipt-key";
import { parseShardsSetting, type ShardsSetting } from "./shards-setting";
import { perObject } from "../lib/per-object";

export type { ConfigProblem };

/** The Worker's bindings as wrangler.toml declares them (the generated global `Env`). */
export type Bindings = Env;

export type SecretName =
  | "JWT_SECRET"
  | "PASSWORD_PEPPER"
  | "SECRETS_KEY"
  | "ONFIDO_API_TOKEN"
  | "ONFIDO_WEBHOOK_TOKEN"
  | "IDENTITY_FINGERPRINT_KEY";

export type AccountLimitSetting = (typeof ACCOUNT_LIMIT_SETTINGS)[number];

export const DEFAULT_SESSION_TTL_SECONDS = 1800;
export const DEFAULT_DNS_OVER_HTTPS_URL = "https://cloudflare-dns.com/dns-query";
export const DEFAULT_CALLBACK_LOG_RETENTION_DAYS = 30;
/** Days a retired token key's spent records are kept after the key was first found retired (docs/double-blind.md). */
export const DEFAULT_AGE_TOKEN_RETIREMENT_DAYS = 30;
/**
 * The raw session log (listing, CSV, redelivery): 45 days covers the default 30-day report window, the
 * fold's day of delay and the 30 days callbacks and session objects are kept, and keeps one D1 database
 * under 10 GB up to about 135,000 sessions a day (docs/capacity.md). Counts older than it come from the
 * daily usage rollup (src/maintenance/fold-usage.ts).
 */
export const DEFAULT_SESSION_LOG_RETENTION_DAYS = 45;
export const DEFAULT_CALLBACK_STALL_SECONDS = 900;
/** Sessions one merchant account may have open (PENDING) at once (docs/limits.md). */
export const DEFAULT_PENDING_SESSIONS_MAX = 10_000;

export type Settings = {
  production: boolean;
  /** Base of every link the service makes (verification_url, mail links, the passkeys' relying party). */
  appUrl: string;
  mailFrom: string;
  provider: "sandbox" | "onfido" | undefined;
  onfidoApiUrl: string;
  /**
   * Where callback hosts are resolved before each delivery (DNS over HTTPS, JSON form): DNS_OVER_HTTPS_URL,
   * or Cloudflare's resolver in production; unset in development (no lookup).
   */
  dnsOverHttpsUrl: string | undefined;
  sessionTtlSeconds: number;
  callbackLogRetentionDays: number;
  ageTokenRetirementDays: number;
  sessionLogRetentionDays: number;
  callbackStallSeconds: number;
  pendingSessionsMax: number;
  /** An operator's value for each per-account limit; undefined means the production value. */
  accountLimits: Readonly<Record<AccountLimitSetting, number | undefined>>;
  /** The previous versions of the rotating secrets, set only during a rotation (src/config/secret-versions.ts). */
  secretsKeyPrevious: string | undefined;
  passwordPepperPrevious: string | undefined;
  jwtSecretPrevious: string | undefined;
  /** When JWT_SECRET was rotated, in Unix seconds (NaN when not set or not a time). */
  jwtSecretRotatedAt: number;
  /** The receipts' signing key, and the previous one still published in the JWKS after a rotation. */
  receiptSigningKey: ReceiptKeySetting;
  receiptSigningKeyPrevious: ReceiptKeySetting;
  /**
   * The digital-ID trust anchors as configured (DIGITAL_ID_TRUST_ANCHORS, concatenated PEM), parsed by
   * src/digital-id; unset: the deployment does not offer the way (docs/api-contract.md §Digital ID).
   */
  digitalIdTrustAnchors: string | undefined;
  /** The age-token keys (AGE_TOKEN_KEYS, JSON), parsed by src/domain/age-tokens; unset: no anonymous age tokens. */
  ageTokenKeys: string | undefined;
  /**
   * The proof-of-age attestations' document signer (ATTESTATION_SIGNING_KEY, a private JWK) and its
   * certificates (ATTESTATION_CERTIFICATES, PEM: signer then IACA root), imported by src/domain/attestations;
   * either unset: the deployment issues no attestations.
   */
  attestationSigningKey: string | undefined;
  attestationCertificates: string | undefined;
  /** The D1 shards (D1_SHARDS, NEW_ACCOUNT_SHARDS: src/config/shards-setting.ts). */
  shards: Pick<ShardsSetting, "count" | "newAccountShards">;
  /** The rules this configuration breaks; a production deployment with any refuses to serve. */
  problems: readonly ConfigProblem[];
  /** The secrets themselves, read through secret(): a missing one fails the request that needs it. */
  secrets: Readonly<Partial<Record<SecretName, string>>>;
};

/**
 * 503: the deployment, not the request, is at fault. The body says only that (anyone may be asking);
 * the operator's log line names each setting with the rule it breaks, never a value.
 */
export const misconfigured = (problems: readonly ConfigProblem[] = []) =>
  new ApiError("MISCONFIGURED", { log: { message: "misconfigured: refusing to serve", fields: { problems } } });

export function secret(settings: Settings, name: SecretName): string {
  const value = settings.secrets[name];
  if (!value) throw misconfigured([{ setting: name, problem: "is missing" }]);
  return value;
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

/** A positive whole number, or undefined (production refuses anything else: src/config/problems.ts). */
const positiveInteger = (value: unknown): number | undefined => {
  const text = nonEmpty(value);
  return text !== undefined && /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
};

const SECRET_NAMES: readonly SecretName[] = [
  "JWT_SECRET",
  "PASSWORD_PEPPER",
  "SECRETS_KEY",
  "ONFIDO_API_TOKEN",
  "ONFIDO_WEBHOOK_TOKEN",
  "IDENTITY_FINGERPRINT_KEY",
];

export function parseSettings(env: Bindings): Settings {
  const read = env as unknown as Partial<Record<string, unknown>>;
  const secrets: Partial<Record<SecretName, string>> = {};
  for (const name of SECRET_NAMES) {
    const value = nonEmpty(read[name]);
    if (value !== undefined) secrets[name] = value;
  }
  const provider = nonEmpty(read.PROVIDER);
  const receiptSigningKey = parseReceiptKey(nonEmpty(read.RECEIPT_SIGNING_KEY), true);
  const receiptSigningKeyPrevious = parseReceiptKey(nonEmpty(read.RECEIPT_SIGNING_KEY_PREVIOUS), false);
  const shards = parseShardsSetting(read);
  const problems = configProblems(read, { current: receiptSigningKey, previous: receiptSigningKeyPrevious });
  return {
    production: read.ENVIRONMENT === "production",
    appUrl: nonEmpty(read.APP_URL) ?? "",
    mailFrom: nonEmpty(read.MAIL_FROM) ?? "",
    provider: provider === "sandbox" || provider === "onfido" ? provider : undefined,
    onfidoApiUrl: nonEmpty(read.ONFIDO_API_URL) ?? "",
    dnsOverHttpsUrl: nonEmpty(read.DNS_OVER_HTTPS_URL) ?? (read.ENVIRONMENT === "production" ? DEFAULT_DNS_OVER_HTTPS_URL : undefined),
    sessionTtlSeconds: positiveInteger(read.SESSION_TTL_SECONDS) ?? DEFAULT_SESSION_TTL_SECONDS,
    callbackLogRetentionDays: positiveInteger(read.CALLBACK_LOG_RETENTION_DAYS) ?? DEFAULT_CALLBACK_LOG_RETENTION_DAYS,
    ageTokenRetirementDays: positiveInteger(read.AGE_TOKEN_RETIREMENT_DAYS) ?? DEFAULT_AGE_TOKEN_RETIREMENT_DAYS,
    sessionLogRetentionDays: positiveInteger(read.SESSION_LOG_RETENTION_DAYS) ?? DEFAULT_SESSION_LOG_RETENTION_DAYS,
    callbackStallSeconds: positiveInteger(read.CALLBACK_STALL_SECONDS) ?? DEFAULT_CALLBACK_STALL_SECONDS,
    pendingSessionsMax: positiveInteger(read.PENDING_SESSIONS_MAX) ?? DEFAULT_PENDING_SESSIONS_MAX,
    accountLimits: Object.fromEntries(ACCOUNT_LIMIT_SETTINGS.map((name) => [name, positiveInteger(read[name])])) as Record<
      AccountLimitSetting,
      number | undefined
    >,
    secretsKeyPrevious: nonEmpty(read.SECRETS_KEY_PREVIOUS),
    passwordPepperPrevious: nonEmpty(read.PASSWORD_PEPPER_PREVIOUS),
    jwtSecretPrevious: nonEmpty(read.JWT_SECRET_PREVIOUS),
    jwtSecretRotatedAt: Date.parse(nonEmpty(read.JWT_SECRET_ROTATED_AT) ?? "") / 1000,
    receiptSigningKey,
    receiptSigningKeyPrevious,
    digitalIdTrustAnchors: nonEmpty(read.DIGITAL_ID_TRUST_ANCHORS),
    ageTokenKeys: nonEmpty(read.AGE_TOKEN_KEYS),
    attestationSigningKey: nonEmpty(read.ATTESTATION_SIGNING_KEY),
    attestationCertificates: nonEmpty(read.ATTESTATION_CERTIFICATES),
    shards: { count: shards.count, newAccountShards: shards.newAccountShards },
    // Development serves shard 0 alone when the setting breaks a rule; production refuses.
    problems: read.ENVIRONMENT === "production" ? [...problems, ...shards.problems] : problems,
    secrets,
  };
}

/** The isolate's settings: one parse per bindings object (src/lib/per-object.ts). */
export const settingsOf: (env: Bindings) => Settings = perObject(parseSettings);

/** The rules the deployment breaks, from the same parse (one check per isolate). */
export const configurationProblems = (env: Bindings): readonly ConfigProblem[] => settingsOf(env).problems;
