// The maintenance settings (wrangler.toml [vars]; production refuses malformed values, src/config/problems.ts).
export const DEFAULT_CALLBACK_LOG_RETENTION_DAYS = 30;
export const DEFAULT_SESSION_LOG_RETENTION_DAYS = 400;
export const DEFAULT_CALLBACK_STALL_SECONDS = 900;
/** Fixed, not a setting: long enough to answer "did my mail fail?", no longer (src/maintenance/mail-failures.ts). */
export const MAIL_FAILURE_RETENTION_DAYS = 30;

const positive = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
};

export const callbackLogRetentionDays = (env: Env) => positive(env.CALLBACK_LOG_RETENTION_DAYS, DEFAULT_CALLBACK_LOG_RETENTION_DAYS);
export const sessionLogRetentionDays = (env: Env) => positive(env.SESSION_LOG_RETENTION_DAYS, DEFAULT_SESSION_LOG_RETENTION_DAYS);
export const callbackStallSeconds = (env: Env) => positive(env.CALLBACK_STALL_SECONDS, DEFAULT_CALLBACK_STALL_SECONDS);

export const DAY_MS = 24 * 60 * 60 * 1000;
