// Typed access to configuration (CONTRACT §10). Secrets are read here only, never logged.
import { ApiError } from "../errors";

/** The Worker's bindings as wrangler.toml declares them (the generated global `Env`). */
export type Bindings = Env;

export type SecretName =
  | "JWT_SECRET"
  | "PASSWORD_PEPPER"
  | "SECRETS_KEY"
  | "ONFIDO_API_TOKEN"
  | "ONFIDO_WEBHOOK_TOKEN"
  | "IDENTITY_FINGERPRINT_KEY";

export const isProduction = (env: Bindings): boolean => env.ENVIRONMENT === "production";

/** 503: the deployment, not the request, is at fault; the body names settings, never their values. */
export const misconfigured = (problems: { setting: string; problem: string }[] = []) =>
  new ApiError("MISCONFIGURED", {
    message: `The service is not configured to serve requests${problems.length ? `: ${problems.map((p) => p.setting).join(", ")}` : ""}.`,
    errors: problems.map((p) => ({ path: p.setting, message: p.problem })),
  });

export function secret(env: Bindings, name: SecretName): string {
  const value = env[name];
  if (!value) throw misconfigured([{ setting: name, problem: "is missing" }]);
  return value;
}

const DEFAULT_SESSION_TTL_SECONDS = 1800;

export function sessionTtlSeconds(env: Bindings): number {
  const parsed = Number.parseInt(env.SESSION_TTL_SECONDS ?? "", 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : DEFAULT_SESSION_TTL_SECONDS;
}
