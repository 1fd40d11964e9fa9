// Typed access to configuration (CONTRACT §10). Secrets are read here only, never logged.
import { ApiError } from "./errors";

/** The Worker's bindings as wrangler.toml declares them (the generated global `Env`). */
export type Bindings = Env;

export type SecretName = "JWT_SECRET" | "PASSWORD_PEPPER" | "SECRETS_KEY" | "ONFIDO_API_TOKEN" | "ONFIDO_WEBHOOK_TOKEN";

export const isProduction = (env: Bindings): boolean => env.ENVIRONMENT === "production";

export const misconfigured = () =>
  new ApiError("MISCONFIGURED");

/** The secrets this configuration cannot serve without. */
export function requiredSecrets(env: Bindings): SecretName[] {
  const names: SecretName[] = ["JWT_SECRET", "PASSWORD_PEPPER", "SECRETS_KEY"];
  if (env.PROVIDER === "onfido") names.push("ONFIDO_API_TOKEN", "ONFIDO_WEBHOOK_TOKEN");
  return names;
}

export const missingSecrets = (env: Bindings): SecretName[] => requiredSecrets(env).filter((name) => !env[name]);

export function secret(env: Bindings, name: SecretName): string {
  const value = env[name];
  if (!value) throw misconfigured();
  return value;
}

const DEFAULT_SESSION_TTL_SECONDS = 1800;

export function sessionTtlSeconds(env: Bindings): number {
  const parsed = Number.parseInt(env.SESSION_TTL_SECONDS ?? "", 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : DEFAULT_SESSION_TTL_SECONDS;
}
