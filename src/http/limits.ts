// Every limit the API applies, in one vocabulary, as src/errors.ts is for errors: where it is counted,
// and (in its facts) what it counts, what it is keyed by, its production numbers, why, and the sentence
// of its 429 documentation. A limit is one counter; routes that share one (the three passkey-options
// routes) declare the same limit. Routes declare their limits in their spec (src/routes/named-route.ts)
// and count them where the behaviour needs it (src/http/rate-limit.ts); docs/limits.md lists this
// catalogue (test/node/limits-doc.test.ts). The facts exist only where the documents are generated
// (`OPENAPI_METADATA`): the Worker carries a limit's name and where it is counted, nothing more.
import { ACCOUNT_LIMITS, type AccountLimitName } from "../domain/limits";

/** What a limit's counter is keyed by. */
export type KeyedBy = "client address" | "email and client address" | "email" | "account";

/** The Rate Limiting bindings of wrangler.toml, each named for what it counts. */
export type LimiterBinding = { [K in keyof Env]-?: Env[K] extends RateLimit ? K : never }[keyof Env];

type Facts<Numbers> = { keyedBy: KeyedBy; counts: string; why: string; tooMany: (numbers: Numbers) => string };

/**
 * Counted by a Workers Rate Limiting binding: 60-second windows, per Cloudflare location, approximate.
 * `perMinute` is the binding's `simple.limit` in every environment of wrangler.toml (a node test compares).
 */
type BindingLimitSpec = { binding: LimiterBinding; facts: (Facts<number> & { perMinute: number }) | false };

/**
 * Counted in D1 fixed windows of hours and days (src/domain/limits/account-limits.ts), exact everywhere:
 * on the account's shard, or on the home shard (`home`) when keyed by something no account owns (an email
 * address that may have no account).
 */
type AccountLimitSpec = {
  accountWindows: AccountLimitName;
  home: boolean;
  facts: (Facts<string> & { keyedBy: "account" | "email" }) | false;
};

const rateLimit = (binding: LimiterBinding, facts: BindingLimitSpec["facts"]): BindingLimitSpec => ({ binding, facts });
const accountLimit = (
  accountWindows: AccountLimitName,
  facts: AccountLimitSpec["facts"],
  where: "account's shard" | "home" = "account's shard",
): AccountLimitSpec => ({
  accountWindows,
  facts,
  home: where === "home",
});

const CATALOGUE = {
  loginPerAddress: rateLimit(
    "LOGIN_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 20,
      counts: "login attempts, any emails",
      why: "credential stuffing: one client trying many emails",
      tooMany: (n) => `Too many attempts from this address (${n} a minute, any emails).`,
    },
  ),
  loginPerEmailAndAddress: rateLimit(
    "LOGIN_PER_EMAIL_AND_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "email and client address",
      perMinute: 5,
      counts: "login attempts for one email",
      why: "guessing one account's password; keyed by the pair so that a stranger's attempts from elsewhere cannot lock the owner out from their own address",
      tooMany: (n) =>
        `Too many attempts for this email from this address (${n} a minute). Keyed by the pair, a stranger's attempts elsewhere cannot lock the owner out from their own address.`,
    },
  ),
  registrationsPerAddress: rateLimit(
    "AUTH_FORM_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 10,
      counts: "registrations",
      why: "account flooding",
      tooMany: () => "Too many attempts from this address.",
    },
  ),
  resetRequestsPerAddress: rateLimit(
    "AUTH_FORM_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 10,
      counts: "password-reset requests",
      why: "mail flooding",
      tooMany: () => "Too many attempts from this address.",
    },
  ),
  passwordResetsPerAddress: rateLimit(
    "AUTH_FORM_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 10,
      counts: "password resets with a mailed token",
      why: "each hashes a new password, so a flood costs CPU",
      tooMany: () => "Too many attempts from this address.",
    },
  ),
  resetMailsPerEmail: rateLimit(
    "RESET_MAIL_PER_EMAIL_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "email",
      perMinute: 5,
      counts: "password-reset mails to one address",
      why: "no one floods one mailbox from many addresses",
      tooMany: (n) => `More than ${n} reset mails a minute for this email.`,
    },
  ),
  accountMailsPerAccount: rateLimit(
    "MAIL_PER_ACCOUNT_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "account",
      perMinute: 5,
      counts: "verification and email-change mails of one account",
      why: "mail flooding",
      tooMany: (n) => `More than ${n} mails a minute for this account.`,
    },
  ),
  passkeyOptionsPerAccount: rateLimit(
    "PASSKEY_OPTIONS_PER_ACCOUNT_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "account",
      perMinute: 10,
      counts: "passkey challenges (registration, confirmation and approval options)",
      why: "each stores a challenge row until it expires",
      tooMany: (n) => `More than ${n} option requests a minute for this account`,
    },
  ),
  callbackToolsPerAccount: rateLimit(
    "CALLBACK_TOOLS_PER_ACCOUNT_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "account",
      perMinute: 10,
      counts: "test events and redeliveries",
      why: "each sends an outbound request for the caller, so neither can be turned into a request flood",
      tooMany: () => "Too many test events and redeliveries from this account this minute.",
    },
  ),
  sessionLinkPerAddress: rateLimit(
    "SESSION_LINK_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 120,
      counts:
        "calls with a session's id and no account or API key: preview, request, decline, passkey options, test outcome, the digital-ID request and response, every complete (anonymous or signed in: a signed-in one reaches the session's double-blind check before its token is checked), and the /verify page's own read of the session",
      why: "each reaches a session's Durable Object: a flood of guessed session ids or nonces must be refused before any is reached",
      tooMany: (n) => `More than ${n} session-link calls a minute from this address.`,
    },
  ),
  issuancePerAddress: rateLimit(
    "SESSION_LINK_PER_ADDRESS_LIMITER",
    OPENAPI_METADATA && {
      keyedBy: "client address",
      perMinute: 120,
      counts: "calls to the attestation issuance endpoints a wallet reaches without an account (token, nonce, credential)",
      why: "each stores or spends a grant, and a token request may be a guess of a transaction code",
      tooMany: (n) => `More than ${n} issuance calls a minute from this address.`,
    },
  ),
  completionsPerAccount: accountLimit(
    "completionsPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "session answers, every attempt",
      why: "one verified adult must not serve as an age proof for a crowd of minors, across every merchant (counted by the UTC day only: an hour window would record when each account answered)",
      tooMany: (production) =>
        `The account answered too many requests (production: ${production}, every attempt counted); Retry-After says when the window ends.`,
    },
  ),
  sdkTokensPerAccount: accountLimit(
    "sdkTokensPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "provider SDK tokens",
      why: "each token is a call to the identity provider",
      tooMany: (production) => `Too many tokens for this account (production: ${production}); Retry-After says when the window ends.`,
    },
  ),
  kycChecksPerAccount: accountLimit(
    "kycChecksPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "identity checks submitted",
      why: "each submission starts a paid check; one account in a loop must not exhaust the provider quota for everyone",
      tooMany: (production) => `Too many submissions for this account (production: ${production}); Retry-After says when the window ends.`,
    },
  ),
  applicantUpdatesPerAccount: accountLimit(
    "applicantUpdatesPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "corrections of the applicant's details, every attempt",
      why: "each correction is a call to the identity provider; a refused check may be corrected a few times, not in a loop",
      tooMany: (production) => `Too many corrections for this account (production: ${production}); Retry-After says when the window ends.`,
    },
  ),
  sessionOpensPerAccount: accountLimit(
    "sessionOpensPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "sessions opened, and test-key answers, every attempt",
      why: "each open costs a Durable Object, a log row, an alarm and a signed callback to any server: a loop on a test key must not spend the operator's money or flood someone else's endpoint",
      tooMany: (production) =>
        `The account opened too many sessions (production: ${production}, and at most 10,000 pending at once); Retry-After says when to try again.`,
    },
  ),
  verificationMailsPerAccount: accountLimit(
    "verificationMailsPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "verification mails of one account, every request",
      why: "the minute limit alone still lets one address be mailed about 7,000 times a day",
      tooMany: (production) =>
        `Too many verification mails for this account (production: ${production}); Retry-After says when the day ends.`,
    },
  ),
  resetMailsPerEmailDaily: accountLimit(
    "resetMailsPerEmailDaily",
    OPENAPI_METADATA && {
      keyedBy: "email",
      counts: "password-reset requests for one address, known or not, every request",
      why: "the minute limits alone still let one mailbox be sent about 7,000 reset mails a day; counted for unknown addresses too, so the answer tells no one which have accounts",
      tooMany: (production) =>
        `Too many reset requests for this email today (production: ${production}); Retry-After says when the day ends.`,
    },
    "home",
  ),
  emailChangeMailsPerAccount: accountLimit(
    "emailChangeMailsPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "email-change confirmations mailed for one account, every request",
      why: "each mails an address the caller picks: one account must not turn into a mail cannon aimed at someone else's mailbox",
      tooMany: (production) =>
        `Too many email changes for this account today (production: ${production}); Retry-After says when the day ends.`,
    },
  ),
  ageTokensPerAccount: accountLimit(
    "ageTokensPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "anonymous age tokens issued (each token of a call, not the call)",
      why: "age tokens are bearer tokens: what one verified adult can pass on to others is bounded by how many they are issued",
      tooMany: (production) =>
        `Too many age tokens for this account today (production: ${production}); Retry-After says when the UTC day ends.`,
    },
  ),
  attestationBatchesPerAccount: accountLimit(
    "attestationBatchesPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "proof-of-age attestation offers and authorizations (each a batch of up to 30 attestations)",
      why: "attestations cannot be revoked and work anywhere until they expire: what one verified adult can hand on is bounded by how many batches they get",
      tooMany: (production) =>
        `Too many attestation batches for this account today (production: ${production}); Retry-After says when the UTC day ends.`,
    },
  ),
  passwordChangesPerAccount: accountLimit(
    "passwordChangesPerAccount",
    OPENAPI_METADATA && {
      keyedBy: "account",
      counts: "password checks of a signed-in account (password and email changes, a first passkey, account deletion), every attempt",
      why: "a stolen token must not guess the current password without end",
      tooMany: (production) => `Too many attempts for this account (production: ${production}); Retry-After says when the window ends.`,
    },
  ),
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

const PER = { 60: "a minute", 3600: "an hour", 86400: "a day" } as const;

/** An account limit's production numbers in words: "10 an hour, 30 a day". */
export const productionWindows = (limit: AccountLimitName): string =>
  ACCOUNT_LIMITS[limit].map((window) => `${window.fallback} ${PER[window.seconds]}`).join(", ");

export type AboutLimit = { keyedBy: KeyedBy; counts: string; why: string; production: string; tooMany: string; perMinute: number | null };

const factsOf = <F>(facts: F | false): F => {
  if (!facts) throw new Error("A limit's facts exist only where OPENAPI_METADATA is true");
  return facts;
};

/** What a limit says about itself, for the documents (the OpenAPI 429s, docs/limits.md, the route prose). */
export function aboutLimit(limit: Limit): AboutLimit {
  if (isBindingLimit(limit)) {
    const { keyedBy, counts, why, perMinute, tooMany } = factsOf(limit.facts);
    return { keyedBy, counts, why, perMinute, production: `${perMinute} a minute`, tooMany: tooMany(perMinute) };
  }
  const { keyedBy, counts, why, tooMany } = factsOf(limit.facts);
  const production = productionWindows(limit.accountWindows);
  return { keyedBy, counts, why, perMinute: null, production, tooMany: tooMany(production) };
}
