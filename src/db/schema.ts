// D1 tables. Times are ISO 8601 UTC strings with milliseconds: they sort as text, which keeps
// the keyset pagination and range filters on plain indexes. Each table is built on its first use
// (src/lib/built-on-first-use.ts): drizzle's table and column objects were the largest part of a fresh
// isolate's start-up after zod's schemas (docs/performance.md), and a merchant's request touches a few
// of the 22.
import { sql } from "drizzle-orm";
import { builtOnFirstUse } from "../lib/built-on-first-use";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// The stored vocabularies. The rest of the code derives its enums from these (src/session/session-status.ts
// for the session statuses), so a value can only be added in one place.
export const USER_TYPES = ["PERSONAL", "BUSINESS"] as const;
export const KYC_RECORD_STATUSES = ["PENDING", "VERIFIED", "REJECTED"] as const;
export const SESSION_STATUSES = ["PENDING", "APPROVED", "DENIED", "EXPIRED"] as const;
export const KEY_MODES = ["live", "test"] as const;
/** The languages of the end user's pages and mails (docs/api-contract.md §Sessions `locale`); the console stays English. */
export const LOCALES = ["en", "fr", "de", "es", "it"] as const;
export type Locale = (typeof LOCALES)[number];
// How a session was answered (docs/api-contract.md §Sessions, §Session policy), stored in the session log: read through src/session/assurance.ts.
export const ASSURANCES = ["KYC_VERIFIED", "DIGITAL_ID_VERIFIED"] as const;
export const HOLDER_BINDINGS = ["PASSWORD", "PASSKEY", "DEVICE_KEY", "ANONYMOUS_TOKEN"] as const;
export const DENIAL_REASONS = ["UNDER_AGE", "DECLINED"] as const;

export const users = builtOnFirstUse(() =>
  sqliteTable(
    "users",
    {
      id: text("id").primaryKey(),
      email: text("email").notNull(),
      passwordHash: text("password_hash").notNull(),
      firstName: text("first_name"),
      lastName: text("last_name"),
      companyName: text("company_name"),
      userType: text("user_type", { enum: USER_TYPES }).notNull(),
      emailVerified: integer("email_verified", { mode: "boolean" }).notNull().default(false),
      // Bumped by password change/reset, email change, logout and deletion: every JWT carries the
      // version it was issued under, so bumping it signs the account out everywhere.
      tokenVersion: integer("token_version").notNull().default(0),
      // The language the account signed up in (docs/end-user-apps.md): its mails are written in it.
      locale: text("locale", { enum: LOCALES }).notNull().default("en"),
      createdAt: text("created_at").notNull(),
      updatedAt: text("updated_at").notNull(),
    },
    (t) => [uniqueIndex("users_email_unique").on(t.email)],
  ),
);

export const emailTokens = builtOnFirstUse(() =>
  sqliteTable(
    "email_tokens",
    {
      tokenHash: text("token_hash").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      purpose: text("purpose", { enum: ["verify", "reset", "change_email"] }).notNull(),
      newEmail: text("new_email"),
      expiresAt: text("expires_at").notNull(),
      usedAt: text("used_at"),
      createdAt: text("created_at").notNull(),
    },
    (t) => [
      index("email_tokens_user").on(t.userId, t.purpose),
      // The scheduled clean-up (src/maintenance/prune-email-links.ts).
      index("email_tokens_expires").on(t.expiresAt),
      index("email_tokens_used").on(t.usedAt),
    ],
  ),
);

export const apiKeys = builtOnFirstUse(() =>
  sqliteTable(
    "api_keys",
    {
      id: text("id").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      name: text("name").notNull(),
      prefix: text("prefix").notNull(),
      // SHA-256 of the API key, hex: the key itself is never stored.
      keyHash: text("key_hash").notNull(),
      // AES-GCM ciphertext of the signing secret: "<keyVersion>.<iv>.<ciphertext>", base64url parts.
      signingSecretEnc: text("signing_secret_enc").notNull(),
      // During a rotation's grace (src/domain/merchant-callbacks/secret-rotation.ts): the secret it replaced, sealed
      // like the current one but bound to "<row id>:previous", and when it stops signing.
      previousSigningSecretEnc: text("previous_signing_secret_enc"),
      previousSecretExpiresAt: text("previous_secret_expires_at"),
      secretRotatedAt: text("secret_rotated_at"),
      // JSON array of allowed callback origins ("https://host[:port]"); null = any allowed URL.
      allowedCallbackOrigins: text("allowed_callback_origins", { mode: "json" }).$type<string[]>(),
      createdAt: text("created_at").notNull(),
      lastUsedAt: text("last_used_at"),
      revokedAt: text("revoked_at"),
      // Test keys open test sessions (livemode false), answered without an identity check.
      mode: text("mode", { enum: KEY_MODES }).notNull().default("live"),
    },
    (t) => [uniqueIndex("api_keys_hash_unique").on(t.keyHash), index("api_keys_user_created").on(t.userId, t.createdAt)],
  ),
);

export const kycRecords = builtOnFirstUse(() =>
  sqliteTable(
    "kyc_records",
    {
      userId: text("user_id")
        .primaryKey()
        .references(() => users.id, { onDelete: "cascade" }),
      applicantId: text("applicant_id").notNull(),
      status: text("status", { enum: KYC_RECORD_STATUSES }).notNull(),
      // Date of birth as the provider verified it (YYYY-MM-DD); null until VERIFIED.
      verifiedDob: text("verified_dob"),
      verifiedAt: text("verified_at"),
      // Provider check id that produced the current status: a redelivered webhook changes nothing.
      checkId: text("check_id"),
      // Keyed HMAC of the verified document's issuing country and number (src/domain/kyc/identity-fingerprint.ts),
      // only while VERIFIED: one document verifies one live account. Nothing else about the document is kept.
      identityFingerprint: text("identity_fingerprint"),
      // Why a REJECTED record was rejected, when the service (not the provider) decided it.
      rejectionReason: text("rejection_reason", { enum: ["IDENTITY_ALREADY_VERIFIED"] }),
      createdAt: text("created_at").notNull(),
      updatedAt: text("updated_at").notNull(),
    },
    (t) => [
      uniqueIndex("kyc_records_applicant_unique").on(t.applicantId),
      uniqueIndex("kyc_records_fingerprint_unique").on(t.identityFingerprint),
    ],
  ),
);

// The merchant-side session log: what usage reports read. It holds no end-user identity.
export const verificationSessions = builtOnFirstUse(() =>
  sqliteTable(
    "verification_sessions",
    {
      id: text("id").primaryKey(),
      accountId: text("account_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      keyId: text("key_id").notNull(),
      status: text("status", { enum: SESSION_STATUSES }).notNull(),
      ageRequired: integer("age_required").notNull(),
      aboveAgeRequired: integer("above_age_required", { mode: "boolean" }).notNull().default(false),
      receiptId: text("receipt_id"),
      createdAt: text("created_at").notNull(),
      expiresAt: text("expires_at").notNull(),
      resolvedAt: text("resolved_at"),
      livemode: integer("livemode", { mode: "boolean" }).notNull().default(true),
      // The merchant's own reference and metadata (JSON object of strings): never shown to the end user.
      reference: text("reference"),
      metadata: text("metadata", { mode: "json" }).$type<Record<string, string>>(),
      // 1.2.0 (docs/api-contract.md §Session policy): the merchant's policy at open, and what the resolution rested on. Rows
      // written before read null (the ways then: KYC_VERIFIED alone; not double-blind).
      acceptedAssurance: text("accepted_assurance", { mode: "json" }).$type<(typeof ASSURANCES)[number][]>(),
      doubleBlind: integer("double_blind", { mode: "boolean" }).notNull().default(false),
      assurance: text("assurance", { enum: ASSURANCES }),
      holderBinding: text("holder_binding", { enum: HOLDER_BINDINGS }),
      denialReason: text("denial_reason", { enum: DENIAL_REASONS }),
    },
    (t) => [
      index("sessions_account_created").on(t.accountId, t.createdAt, t.id),
      index("sessions_key_created").on(t.keyId, t.createdAt, t.id),
      // livemode last: the counts filter on it and still read this index alone (covering).
      index("sessions_account_status_created").on(t.accountId, t.status, t.createdAt, t.id, t.livemode),
      // Retention (src/maintenance/prune-session-log.ts).
      index("sessions_created").on(t.createdAt),
    ],
  ),
);

export const callbackEvents = builtOnFirstUse(() =>
  sqliteTable(
    "callback_events",
    {
      id: text("id").primaryKey(), // webhook-id, msg_…
      sessionId: text("session_id")
        .notNull()
        .references(() => verificationSessions.id, { onDelete: "cascade" }),
      type: text("type").notNull(),
      state: text("state", { enum: ["pending", "delivered", "failed"] }).notNull(),
      createdAt: text("created_at").notNull(),
      updatedAt: text("updated_at").notNull(),
    },
    (t) => [
      index("callback_events_session").on(t.sessionId, t.createdAt),
      // Pending events whose queue message was lost (src/maintenance/resend-stalled-callbacks.ts).
      index("callback_events_state_updated").on(t.state, t.updatedAt),
    ],
  ),
);

export const callbackAttempts = builtOnFirstUse(() =>
  sqliteTable(
    "callback_attempts",
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      eventId: text("event_id")
        .notNull()
        .references(() => callbackEvents.id, { onDelete: "cascade" }),
      attempt: integer("attempt").notNull(),
      at: text("at").notNull(),
      durationMs: integer("duration_ms").notNull(),
      statusCode: integer("status_code"),
      error: text("error"),
    },
    (t) => [
      uniqueIndex("callback_attempts_event_attempt").on(t.eventId, t.attempt),
      // Retention (src/maintenance/prune-callback-attempts.ts).
      index("callback_attempts_at").on(t.at),
    ],
  ),
);

// Development mail outbox (GET /api/dev/outbox); production sends through the send_email binding.
export const devOutbox = builtOnFirstUse(() =>
  sqliteTable(
    "dev_outbox",
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      to: text("to").notNull(),
      subject: text("subject").notNull(),
      text: text("text").notNull(),
      createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    },
    (t) => [index("dev_outbox_to").on(t.to, t.id), index("dev_outbox_created").on(t.createdAt)],
  ),
);

// Account mail that could not be sent after its last retry (src/mail/mail-consumer.ts): for the operator.
// The recipient only as a hash (to answer "did my mail fail?"), never the mail or its link.
export const mailFailures = builtOnFirstUse(() =>
  sqliteTable(
    "mail_failures",
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      // SHA-256 hex of the lower-cased address.
      recipientHash: text("recipient_hash").notNull(),
      purpose: text("purpose").notNull(),
      error: text("error").notNull(),
      attempts: integer("attempts").notNull(),
      failedAt: text("failed_at").notNull(),
    },
    (t) => [index("mail_failures_failed_at").on(t.failedAt)],
  ),
);

// Applicants a deleted account left at the identity provider that could not be deleted there after the
// last retry (src/providers/applicant-deletion.ts): for the operator to delete by hand. The provider's
// opaque applicant id is all that is kept: no name, address, user id or anything else that links it to
// a person on our side (the account is already gone).
export const applicantDeletionFailures = builtOnFirstUse(() =>
  sqliteTable(
    "applicant_deletion_failures",
    {
      id: integer("id").primaryKey({ autoIncrement: true }),
      provider: text("provider").notNull(),
      applicantId: text("applicant_id").notNull(),
      error: text("error").notNull(),
      attempts: integer("attempts").notNull(),
      failedAt: text("failed_at").notNull(),
    },
    (t) => [index("applicant_deletion_failures_failed_at").on(t.failedAt)],
  ),
);

// The sandbox provider's record of the applicants it was asked to delete (development only), so that
// tests and the demo can see a deleted account's applicant go, as Onfido's would.
export const sandboxDeletedApplicants = builtOnFirstUse(() =>
  sqliteTable("sandbox_deleted_applicants", {
    applicantId: text("applicant_id").primaryKey(),
    deletedAt: text("deleted_at").notNull(),
  }),
);

// The sandbox provider's memory of an applicant whose details were corrected (PUT /api/kyc/applicant,
// development only): its ids carry the date of birth typed at creation, and an id cannot change, so the
// corrected date lives here, as Onfido keeps an updated applicant. Deleted with the applicant.
export const sandboxApplicantUpdates = builtOnFirstUse(() =>
  sqliteTable("sandbox_applicant_updates", {
    applicantId: text("applicant_id").primaryKey(),
    dob: text("dob").notNull(),
    updatedAt: text("updated_at").notNull(),
  }),
);

// Fixed-window counters of what an account may do a limited number of times (src/domain/limits/account-limits.ts):
// only a hash of (limit, account, window) and a count, nothing about what was done (docs/api-contract.md §Privacy).
// WITHOUT ROWID (drizzle/0019_keyed_tables_without_rowid.sql; drizzle cannot say it here): the rows are
// kept in the order of their key, never of their making, which would date a day row by its neighbours.
export const accountCounters = builtOnFirstUse(() =>
  sqliteTable(
    "account_counters",
    {
      // SHA-256 hex of "limit:account id:window start".
      key: text("key").primaryKey(),
      count: integer("count").notNull(),
      // End of the window: the row is dead after it, and the scheduled maintenance deletes it.
      expiresAt: text("expires_at").notNull(),
    },
    (t) => [index("account_counters_expires").on(t.expiresAt)],
  ),
);

// Idempotency-Key records of session opens (src/domain/verification/idempotency.ts), per account, for 24 hours; a row
// without a status is a request still in flight. Pruned by src/maintenance/prune-idempotency-keys.ts.
export const idempotencyKeys = builtOnFirstUse(() =>
  sqliteTable(
    "idempotency_keys",
    {
      accountId: text("account_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      // The API key that sent the request: a key is scoped to it, so a test key's answer never comes back
      // to a live key's request (docs/security-privacy.md).
      keyId: text("key_id")
        .notNull()
        .references(() => apiKeys.id, { onDelete: "cascade" }),
      key: text("key").notNull(),
      // SHA-256 hex of the request body as validated.
      requestHash: text("request_hash").notNull(),
      statusCode: integer("status_code"),
      // The first answer, sealed under SECRETS_KEY and bound to its row (src/lib/sealed-secret.ts): it
      // carries the session's nonce, which is never kept readable.
      responseBody: text("response_body"),
      createdAt: text("created_at").notNull(),
      expiresAt: text("expires_at").notNull(),
    },
    (t) => [primaryKey({ columns: [t.keyId, t.key] }), index("idempotency_keys_expires").on(t.expiresAt)],
  ),
);

// Row types, beside the tables they describe.
// Passkeys (WebAuthn, docs/passkeys.md): the public key and credential id with the account, nothing
// about the device. The signature counter catches a cloned authenticator.
export const passkeys = builtOnFirstUse(() =>
  sqliteTable(
    "passkeys",
    {
      id: text("id").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      /** base64url, as the browser reports it. */
      credentialId: text("credential_id").notNull(),
      /** base64url of the uncompressed P-256 point (SEC1). */
      publicKey: text("public_key").notNull(),
      /** COSE algorithm identifier: -7 (ES256). */
      algorithm: integer("algorithm").notNull(),
      signCount: integer("sign_count").notNull(),
      name: text("name").notNull(),
      createdAt: text("created_at").notNull(),
      lastUsedAt: text("last_used_at"),
    },
    (t) => [uniqueIndex("passkeys_credential_unique").on(t.credentialId), index("passkeys_user").on(t.userId)],
  ),
);

/** register: a new passkey; approve: one session's approval; confirm: a passkey holder confirming a change to their passkeys. */
export const PASSKEY_CHALLENGE_PURPOSES = ["register", "approve", "confirm"] as const;

// Single-use WebAuthn challenges, stored hashed and deleted on use; the scheduled maintenance deletes
// expired ones. An approval challenge is bound to one session through a hash of the challenge with the
// session's nonce, which names no session: nothing stored links the account to the session it approves.
// WITHOUT ROWID (drizzle/0019_keyed_tables_without_rowid.sql; drizzle cannot say it here): a pending
// challenge names its account, and a rowid would keep the order it was asked in among the others.
export const passkeyChallenges = builtOnFirstUse(() =>
  sqliteTable(
    "passkey_challenges",
    {
      challengeHash: text("challenge_hash").primaryKey(),
      userId: text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      purpose: text("purpose", { enum: PASSKEY_CHALLENGE_PURPOSES }).notNull(),
      /**
       * An approval's binding to its session: SHA-256 of (challenge, session nonce). No session id is kept,
       * and the value matches nothing the session stores (its nonce hash is SHA-256 of the nonce alone), so
       * a database reader cannot tell which session an account was about to approve (docs/api-contract.md §Privacy).
       */
      nonceHash: text("nonce_hash"),
      expiresAt: text("expires_at").notNull(),
    },
    (t) => [index("passkey_challenges_expires").on(t.expiresAt)],
  ),
);

export type UserRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KycRecordRow = typeof kycRecords.$inferSelect;
export type SessionLogRow = typeof verificationSessions.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;

// Spent anonymous age tokens (docs/api-contract.md §Age tokens, docs/double-blind.md): the SHA-256 of a token's nonce, so
// the same token never approves twice, and the id of the key that signed it, so the row is pruned once
// that key is no longer published (src/maintenance/prune-spent-age-tokens.ts). No time and no account: the
// row must not be joinable to an issuance.
export const spentAgeTokens = builtOnFirstUse(() =>
  sqliteTable(
    "spent_age_tokens",
    {
      nonceHash: text("nonce_hash").primaryKey(),
      tokenKeyId: text("token_key_id").notNull(),
    },
    (t) => [index("spent_age_tokens_key").on(t.tokenKeyId)],
  ),
);

// Token keys found retired (docs/double-blind.md "Where spent tokens are kept"): when the scheduled run
// first found a key with spent records absent from AGE_TOKEN_KEYS (current and previous). Its spent
// records go only AGE_TOKEN_RETIREMENT_DAYS after that, never on one run's reading of the setting; a
// key seen in service again loses its row (src/maintenance/prune-spent-age-tokens.ts). Keys only: nothing
// here is about an account or a token.
export const retiredTokenKeys = builtOnFirstUse(() =>
  sqliteTable("retired_token_keys", {
    tokenKeyId: text("token_key_id").primaryKey(),
    retiredAt: text("retired_at").notNull(),
  }),
);

// Usage rollup (docs/capacity.md): the session log's counts per account, key, UTC day and mode, folded by the
// scheduled run (src/maintenance/fold-usage.ts) once a day's sessions can no longer change, before the
// retention deletes their rows. Usage reports read it for the days older than the raw log
// (src/domain/usage/rollup.ts). Counts only: no session id, nothing about an end user (docs/api-contract.md §Privacy);
// `day` is a calendar date, nothing finer. Created WITHOUT ROWID by its migration (drizzle/0014_usage_rollup.sql,
// by hand: drizzle-kit cannot say it), so a row is stored once, in its primary key.
export const usageDays = builtOnFirstUse(() =>
  sqliteTable(
    "usage_days",
    {
      accountId: text("account_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      keyId: text("key_id").notNull(),
      day: text("day").notNull(),
      livemode: integer("livemode", { mode: "boolean" }).notNull(),
      approved: integer("approved").notNull().default(0),
      denied: integer("denied").notNull().default(0),
      expired: integer("expired").notNull().default(0),
      pending: integer("pending").notNull().default(0),
    },
    // In the reports' order: an account, a mode, a range of days; by key last.
    (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.day, t.keyId] })],
  ),
);

// How far the fold has gone in this database: one row (id 1), the last UTC day folded. One row for the
// whole database, not one per account: the fold recomputes a day for every account at once, so a day is
// folded for all or for none, and the session-log retention deletes only rows of folded days.
export const usageFold = builtOnFirstUse(() =>
  sqliteTable("usage_fold", {
    id: integer("id").primaryKey(),
    foldedThrough: text("folded_through").notNull(),
  }),
);

// Home-shard tables (docs/operations.md: the tables that are no single account's live on shard 0, the DB binding;
// the migration creates them on every shard, where they stay empty but on shard 0).

// The email → account directory: the one place email uniqueness holds across shards, and how sign-in,
// forgot-password and resend find the account's shard (its id carries it) in one read. Written before
// the account on register (src/domain/accounts/account-directory.ts); `claimedAt` lets a register take
// over a claim whose account was never written (a crash between the two writes).
export const accountDirectory = builtOnFirstUse(() =>
  sqliteTable("account_directory", {
    email: text("email").primaryKey(),
    userId: text("user_id").notNull(),
    claimedAt: text("claimed_at").notNull(),
  }),
);

// Which shard holds the KYC record of a provider applicant: the provider's webhook names the applicant
// only (src/domain/kyc/applicant-shards.ts). An applicant with no row is from before sharding: shard 0.
export const applicantShards = builtOnFirstUse(() =>
  sqliteTable("applicant_shards", {
    applicantId: text("applicant_id").primaryKey(),
    shard: integer("shard").notNull(),
  }),
);

// Which account a verified identity document is held by (its keyed fingerprint, src/domain/kyc/
// identity-fingerprint.ts): "one document, one account" must hold across shards, which each KYC table's
// unique index alone cannot do (src/domain/kyc/identity-claims.ts).
export const identityClaims = builtOnFirstUse(() =>
  sqliteTable("identity_claims", {
    fingerprint: text("fingerprint").primaryKey(),
    userId: text("user_id").notNull(),
  }),
);

// Proof-of-age attestation issuance (docs/attestations.md): the short-lived, single-use secrets of the
// OpenID4VCI grants, one row each: a credential offer's pre-authorized code, an authorization code, an
// access token, a c_nonce. Keyed by a keyed hash of the secret (src/domain/attestations/grants.ts), never
// the secret. No row names an account: the account's one trace of issuance is its daily count
// (account_counters), taken when the offer or the authorization is made; and nothing of an issued
// attestation (device keys, salts, MSO, signature) is stored at all.
export const ATTESTATION_GRANT_KINDS = ["offer", "code", "token", "nonce"] as const;
export const attestationGrants = builtOnFirstUse(() =>
  sqliteTable(
    "attestation_grants",
    {
      keyHash: text("key_hash").primaryKey(),
      kind: text("kind", { enum: ATTESTATION_GRANT_KINDS }).notNull(),
      // An offer: the keyed hash of its transaction code and the wrong codes tried (five end the offer).
      txCodeHash: text("tx_code_hash"),
      failedAttempts: integer("failed_attempts").notNull().default(0),
      // An authorization code: the PKCE S256 challenge and the redirect_uri it was issued for.
      codeChallenge: text("code_challenge"),
      redirectUri: text("redirect_uri"),
      // Dead after this; the scheduled maintenance deletes dead rows.
      expiresAt: text("expires_at").notNull(),
    },
    (t) => [index("attestation_grants_expires").on(t.expiresAt)],
  ),
);
