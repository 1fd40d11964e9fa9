// Every limit the API applies, in one vocabulary, as src/errors.ts is for errors: what it counts, what it
// is keyed by, where it is counted, its production numbers and the sentence of its 429 documentation.
// A limit is one counter; routes that share one (the three passkey-options routes) declare the same limit.
// Routes declare their limits in their spec (src/routes/named-route.ts) and count them where the
// behaviour needs it (src/http/rate-limit.ts); docs/limits.md lists this catalogue (test/node/limits-doc.test.ts).
import { ACCOUNT_LIMITS, type AccountLimitName } from "../domain/limits";

/** What a limit's counter is keyed by. */
export type KeyedBy = "client address" | "email and client address" | "email" | "account";

/** The Rate Limiting bindings of wrangler.toml, each named for what it counts. */
export type LimiterBinding = { [K in keyof Env]-?: Env[K] extends RateLimit ? K : never }[keyof Env];

/** The prose of a limit: only where the documents are generated (`OPENAPI_METADATA`), never in the Worker. */
type About = { counts: string; why: string; tooMany: string };

/**
 * Counted by a Workers Rate Limiting binding: 60-second windows, per Cloudflare location, approximate.
 * `perMinute` is the binding's `simple.limit` in every environment of wrangler.toml (a node test compares).
 */
type BindingLimitSpec = { keyedBy: KeyedBy; binding: LimiterBinding; perMinute: number; about: ((perMinute: number) => About) | false };

/** Counted in D1 fixed windows of hours and days (src/domain/limits/account-limits.ts), exact everywhere. */
type AccountLimitSpec = { keyedBy: "account"; accountWindows: AccountLimitName; about: ((production: string) => About) | false };

const rateLimit = (spec: BindingLimitSpec) => spec;
const accountLimit = (spec: AccountLimitSpec) => spec;

const CATALOGUE = {
  loginPerAddress: rateLimit({
    keyedBy: "client address",
    binding: "LOGIN_PER_ADDRESS_LIMITER",
    perMinute: 20,
    about:
      OPENAPI_METADATA &&
      ((n) => ({
        counts: "login attempts, any emails",
        why: "credential stuffing: one client trying many emails",
        tooMany: `Too many attempts from this address (${n} a minute, any emails).`,
      })),
  }),
  loginPerEmailAndAddress: rateLimit({
    keyedBy: "email and client address",
    binding: "LOGIN_PER_EMAIL_AND_ADDRESS_LIMITER",
    perMinute: 5,
    about:
      OPENAPI_METADATA &&
      ((n) => ({
        counts: "login attempts for one email",
        why: "guessing one account's password; keyed by the pair so that a stranger's attempts from elsewhere cannot lock the owner out from their own address",
        tooMany: `Too many attempts for this email from this address (${n} a minute). Keyed by the pair, a stranger's attempts elsewhere cannot lock the owner out from their own address.`,
      })),
  }),
  registrationsPerAddress: rateLimit({
    keyedBy: "client address",
    binding: "AUTH_FORM_PER_ADDRESS_LIMITER",
    perMinute: 10,
    about: OPENAPI_METADATA && (() => ({ counts: "registrations", why: "account flooding", tooMany: "Too many attempts from this address." })),
  }),
  resetRequestsPerAddress: rateLimit({
    keyedBy: "client address",
    binding: "AUTH_FORM_PER_ADDRESS_LIMITER",
    perMinute: 10,
    about: OPENAPI_METADATA && (() => ({ counts: "password-reset requests", why: "mail flooding", tooMany: "Too many attempts from this address." })),
  }),
  passwordResetsPerAddress: rateLimit({
    keyedBy: "client address",
    binding: "AUTH_FORM_PER_ADDRESS_LIMITER",
    perMinute: 10,
    about: OPENAPI_METADATA && (() => ({ counts: "password resets with a mailed token", why: "each hashes a new password, so a flood costs CPU", tooMany: "Too many attempts from this address." })),
  }),
  resetMailsPerEmail: rateLimit({
    keyedBy: "email",
    binding: "RESET_MAIL_PER_EMAIL_LIMITER",
    perMinute: 5,
    about:
      OPENAPI_METADATA &&
      ((n) => ({ counts: "password-reset mails to one address", why: "no one floods one mailbox from many addresses", tooMany: `More than ${n} reset mails a minute for this email.` })),
  }),
  accountMailsPerAccount: rateLimit({
    keyedBy: "account",
    binding: "MAIL_PER_ACCOUNT_LIMITER",
    perMinute: 5,
    about:
      OPENAPI_METADATA &&
      ((n) => ({ counts: "verification and email-change mails of one account", why: "mail flooding", tooMany: `More than ${n} mails a minute for this account.` })),
  }),
  passkeyOptionsPerAccount: rateLimit({
    keyedBy: "account",
    binding: "PASSKEY_OPTIONS_PER_ACCOUNT_LIMITER",
    perMinute: 10,
    about:
      OPENAPI_METADATA &&
      ((n) => ({
        counts: "passkey challenges (registration, confirmation and approval options)",
        why: "each stores a challenge row until it expires",
        tooMany: `More than ${n} option requests a minute for this account`,
      })),
  }),
  callbackToolsPerAccount: rateLimit({
    keyedBy: "account",
    binding: "CALLBACK_TOOLS_PER_ACCOUNT_LIMITER",
    perMinute: 10,
    about:
      OPENAPI_METADATA &&
      (() => ({
        counts: "test events and redeliveries",
        why: "each sends an outbound request for the caller, so neither can be turned into a request flood",
        tooMany: "Too many test events and redeliveries from this account this minute.",
      })),
  }),
  completionsPerAccount: accountLimit({
    keyedBy: "account",
    accountWindows: "completion",
    about:
      OPENAPI_METADATA &&
      ((production) => ({
        counts: "session answers, every attempt",
        why: "one verified adult must not serve as an age proof for a crowd of minors, at machine speed, across every merchant",
        tooMany: `The account answered too many requests (production: ${production}, every attempt counted); Retry-After says when the window ends.`,
      })),
  }),
  sdkTokensPerAccount: accountLimit({
    keyedBy: "account",
    accountWindows: "sdkToken",
    about:
      OPENAPI_METADATA &&
      ((production) => ({
        counts: "provider SDK tokens",
        why: "each token is a call to the identity provider",
        tooMany: `Too many tokens for this account (production: ${production}); Retry-After says when the window ends.`,
      })),
  }),
  kycChecksPerAccount: accountLimit({
    keyedBy: "account",
    accountWindows: "kycCheck",
    about:
      OPENAPI_METADATA &&
      ((production) => ({
        counts: "identity checks submitted",
        why: "each submission starts a paid check; one account in a loop must not exhaust the provider quota for everyone",
        tooMany: `Too many submissions for this account (production: ${production}); Retry-After says when the window ends.`,
      })),
  }),
  passwordChangesPerAccount: accountLimit({
    keyedBy: "account",
    accountWindows: "passwordChange",
    about:
      OPENAPI_METADATA &&
      ((production) => ({
        counts: "password changes, every attempt",
        why: "a stolen token must not guess the current password without end",
        tooMany: `Too many attempts for this account (production: ${production}); Retry-After says when the window ends.`,
      })),
  }),
};

export type LimitName = keyof typeof CATALOGUE;
export type BindingLimit = BindingLimitSpec & { name: LimitName };
export type AccountLimit = AccountLimitSpec & { name: LimitName };
export type Limit = BindingLimit | AccountLimit;

/** The catalogue, each limit carrying its own name (the prefix of its counter's key). */
export const LIMITS = Object.fromEntries(Object.entries(CATALOGUE).map(([name, spec]) => [name, { ...spec, name }])) as unknown as {
  [N in LimitName]: (typeof CATALOGUE)[N] & { name: N };
};

export const isBindingLimit = (limit: Limit): limit is BindingLimit => "binding" in limit;

const PER = { 3600: "an hour", 86_400: "a day" } as const;

/** An account limit's production numbers in words: "10 an hour, 30 a day". */
export const productionWindows = (limit: AccountLimitName): string =>
  ACCOUNT_LIMITS[limit].map((window) => `${window.fallback} ${PER[window.seconds]}`).join(", ");

/** What a limit says about itself, for the documents (the OpenAPI 429s, docs/limits.md). */
export function aboutLimit(limit: Limit): About {
  if (!limit.about) throw new Error("Limit prose exists only where OPENAPI_METADATA is true");
  return isBindingLimit(limit) ? limit.about(limit.perMinute) : limit.about(productionWindows(limit.accountWindows));
}
