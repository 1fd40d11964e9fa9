// Limits per account that the Workers Rate Limiting binding cannot express (its windows are 10 or 60
// seconds, per location, eventually consistent): so many an hour or a day, counted in D1 fixed windows.
// One statement per window, all in one db.batch: one storage round trip per limited request.
// A row holds a keyed hash of (limit, account, window) and a count: nothing says what was done, so a
// counter of completions links no account to the sessions it answered (docs/api-contract.md §Privacy), and the key (an
// HMAC under a key derived from IDENTITY_FINGERPRINT_KEY, src/config/derived-keys.ts) cannot be recomputed for a
// known account id from a copy of the database, so the rows do not even say whose activity they count.
import { upsertCounter } from "../../db/account-counter";
import { ApiError } from "../../errors";
import { hmacHex } from "../../lib/crypto";
import { derivedKey } from "../../config/derived-keys";
import type { ServiceContext } from "../../context/service-context";
import type { AccountLimitSetting, Settings } from "../../config/settings";

const HOUR = 3600;
const DAY = 86_400;

/**
 * `name` is the window's stored name: it is hashed into every counter row's key, so it stays as first
 * written (renaming it would restart every account's count). `setting` is the operator's name for the
 * number (docs/configuration.md), published, so it stays too.
 */
type Window = { name: string; setting: AccountLimitSetting; fallback: number; seconds: number };

/**
 * Every account limit, under its name in the limits catalogue (src/http/limits.ts): the setting that
 * overrides it (wrangler.toml [vars]) and the production value (the fallback). docs/limits.md lists
 * them with their reasons.
 */
export const ACCOUNT_LIMITS = {
  /**
   * One verified adult must not serve as an age proof for a crowd. A day window only: a counter row is
   * keyed by a hash the service itself can recompute for an account and window, so an hour window would
   * record the hour each account answered, a time finer than the day (docs/double-blind.md).
   */
  completionsPerAccount: [{ name: "completion-day", setting: "COMPLETIONS_PER_DAY", fallback: 30, seconds: DAY }],
  /** Each SDK token is a paid provider call. */
  sdkTokensPerAccount: [{ name: "sdk-token-hour", setting: "KYC_SDK_TOKENS_PER_HOUR", fallback: 10, seconds: HOUR }],
  /** Each submission starts a paid check at the provider. */
  kycChecksPerAccount: [{ name: "kyc-check-day", setting: "KYC_CHECKS_PER_DAY", fallback: 3, seconds: DAY }],
  /** Each correction of an applicant's details is a provider call (PUT /api/kyc/applicant). */
  applicantUpdatesPerAccount: [{ name: "applicant-update-day", setting: "KYC_APPLICANT_UPDATES_PER_DAY", fallback: 5, seconds: DAY }],
  /** Each open session costs a Durable Object, a log row, an alarm and a signed callback (docs/limits.md). */
  sessionOpensPerAccount: [{ name: "session-open-minute", setting: "SESSION_OPENS_PER_MINUTE", fallback: 600, seconds: 60 }],
  /** One address must not be mailed a verification link thousands of times a day (docs/limits.md). */
  verificationMailsPerAccount: [{ name: "verification-mail-day", setting: "VERIFICATION_MAILS_PER_DAY", fallback: 10, seconds: DAY }],
  /**
   * One mailbox must not get a reset link thousands of times a day. Keyed by the address, known or not
   * (the answer is the same either way), on the home shard: no account is read to count it.
   */
  resetMailsPerEmailDaily: [{ name: "reset-mail-day", setting: "RESET_MAILS_PER_DAY", fallback: 5, seconds: DAY }],
  /** An email change mails an address the caller picks: so many a day per account. */
  emailChangeMailsPerAccount: [{ name: "email-change-mail-day", setting: "EMAIL_CHANGE_MAILS_PER_DAY", fallback: 5, seconds: DAY }],
  /**
   * Age tokens are bearer tokens: what one verified adult can hand on is bounded by how many they get
   * (docs/api-contract.md §Age tokens, docs/security-privacy.md). Counts tokens, not calls (src/domain/age-tokens/issuance-count.ts);
   * 30 is AGE_TOKENS_PER_DAY_DEFAULT there (test/age-tokens/issuance-route.test.ts keeps them equal).
   */
  ageTokensPerAccount: [{ name: "age-token-day", setting: "AGE_TOKENS_PER_DAY", fallback: 30, seconds: DAY }],
  /**
   * Each batch is up to 30 proof-of-age attestations, each usable anywhere until it expires and never
   * revocable (docs/attestations.md): what one verified adult can hand on is bounded by how many batches
   * they get. Counted when an offer or an authorization is made (src/domain/attestations/batch-authorization.ts).
   */
  attestationBatchesPerAccount: [{ name: "attestation-batch-day", setting: "ATTESTATION_BATCHES_PER_DAY", fallback: 3, seconds: DAY }],
  /** A stolen token must not guess the current password without end. */
  passwordChangesPerAccount: [{ name: "password-change-hour", setting: "PASSWORD_CHANGES_PER_HOUR", fallback: 10, seconds: HOUR }],
} as const satisfies Record<string, readonly Window[]>;

export type AccountLimitName = keyof typeof ACCOUNT_LIMITS;

/** The limit in force: the operator's setting (a positive whole number), else the production value. */
export const limitOf = (settings: Settings, window: Window): number => settings.accountLimits[window.setting] ?? window.fallback;

/** The counter rows one use of `limit` by the account touches: one per window, keyed by a keyed hash. */
export async function counterKeys(settings: Settings, limit: AccountLimitName, accountId: string, now: number) {
  const windows: readonly Window[] = ACCOUNT_LIMITS[limit];
  const hashKey = await derivedKey(settings, "account-counters");
  return Promise.all(
    windows.map(async (window) => {
      const start = Math.floor(now / 1000 / window.seconds) * window.seconds;
      const end = start + window.seconds;
      return {
        window,
        end,
        key: await hmacHex(hashKey, `${window.name}:${accountId}:${start}`),
        expiresAt: new Date(end * 1000).toISOString(),
      };
    }),
  );
}

export type CounterKey = Awaited<ReturnType<typeof counterKeys>>[number];

/** 429 RATE_LIMITED, Retry-After: the seconds until the exceeded window ends, when any count is over its limit. */
export function refuseOverLimit(
  settings: Settings,
  rows: readonly CounterKey[],
  counts: readonly (readonly { count: number }[] | undefined)[],
  now: number,
): void {
  let retryAfter = 0;
  rows.forEach(({ window, end }, i) => {
    if ((counts[i]?.[0]?.count ?? 0) > limitOf(settings, window)) retryAfter = Math.max(retryAfter, end - Math.floor(now / 1000));
  });
  if (retryAfter > 0) {
    throw new ApiError("RATE_LIMITED", {
      message: "Too many attempts for this account; try again later.",
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/**
 * Counts one use of `limit` by the account and refuses it (429 RATE_LIMITED, Retry-After: the seconds
 * until the exceeded window ends) when that makes any window go over. Every attempt counts, refused
 * ones too, so hammering past the limit does not shorten the wait.
 */
export async function countAccountUse(ctx: ServiceContext, limit: AccountLimitName, accountId: string, now = Date.now()): Promise<void> {
  const rows = await counterKeys(ctx.settings, limit, accountId, now);
  const [first, ...rest] = rows.map((row) => upsertCounter(ctx.db, row));
  const counts = await ctx.db.batch([first!, ...rest]);
  refuseOverLimit(ctx.settings, rows, counts, now);
}
