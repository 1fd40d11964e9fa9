// An account's passkeys: registration and approval challenges (single use, a few minutes, stored
// hashed), enrolment, listing, renaming and removal, and the assertion that binds an approval to
// the account's device (docs/passkeys.md).
import { and, asc, count, eq } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { passkeyChallenges, passkeys, type PasskeyRow, type UserRow } from "../../db/schema";
import { ApiError, notFound } from "../../errors";
import { sha256Hex } from "../../lib/crypto";
import { toBase64Url, utf8 } from "../../lib/encoding";
import { isIdOf, newId } from "../../lib/ids";
import { addSeconds, nowIso } from "../../lib/time";
import { expiryOfSecret, newExpiringSecret } from "../../lib/expiring-secret";
import { endOfUtcDay } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";
import { isUniqueViolation } from "../../db/unique-violation";
import { checkPassword } from "../accounts";
import {
  clientData,
  invalidPasskey,
  relyingParty,
  verifyAssertion,
  verifyRegistration,
  type AssertionCredential,
  type RegistrationCredential,
} from "./webauthn";

export const PASSKEY_CHALLENGE_TTL_SECONDS = 300;
export const MAX_PASSKEYS_PER_ACCOUNT = 10;
const TIMEOUT_MS = PASSKEY_CHALLENGE_TTL_SECONDS * 1000;
const RP_NAME = "Age verification";

export const PasskeyName = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
export const PasskeyView = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z
    .nullable(z.iso.datetime())
    .check(
      z.describe(
        OPENAPI_METADATA
          ? "The UTC day the passkey was last used, as midnight of that day: no finer time is kept, so it cannot be matched to a session's answer."
          : "",
      ),
    ),
});
export type PasskeyView = z.infer<typeof PasskeyView>;

const view = (row: PasskeyRow): PasskeyView => ({ id: row.id, name: row.name, created_at: row.createdAt, last_used_at: row.lastUsedAt });

const rpOf = (ctx: ServiceContext) => relyingParty(ctx.settings.appUrl);

type Binding = { purpose: "register" | "confirm" } | { purpose: "approve"; nonce: string };

/**
 * An approval challenge's binding to its session: SHA-256 of the challenge with the session's nonce.
 * The nonce is the session's secret, so this binds the challenge to that one session, and it matches
 * nothing the session stores (its nonce hash is of the nonce alone): a database reader cannot join a
 * pending challenge's account to a session (docs/api-contract.md §Privacy).
 */
const approvalBinding = (challenge: string, nonce: string) => sha256Hex(`approve:${challenge}:${nonce}`);

/** The UTC day of an approval, as the time a passkey was last used: no finer time is kept (docs/api-contract.md §Privacy, §Passkeys). */
const approvalDay = () => `${nowIso().slice(0, 10)}T00:00:00.000Z`;

/**
 * Stores a fresh challenge and returns it, base64url; only its hash and the day it ends are kept. The
 * fine expiry travels in the challenge (src/lib/expiring-secret.ts), never in the row: a challenge names
 * its account, and an approval's challenge is asked at the moment of an approval, so a finer time would
 * date the account's answer (docs/double-blind.md).
 */
async function issueChallenge(ctx: ServiceContext, userId: string, binding: Binding) {
  const expiresAt = Date.parse(addSeconds(nowIso(), PASSKEY_CHALLENGE_TTL_SECONDS));
  const challenge = newExpiringSecret(expiresAt);
  await ctx.db.insert(passkeyChallenges).values({
    challengeHash: await sha256Hex(challenge),
    userId,
    purpose: binding.purpose,
    nonceHash: binding.purpose === "approve" ? await approvalBinding(challenge, binding.nonce) : null,
    expiresAt: endOfUtcDay(expiresAt),
  });
  return challenge;
}

/**
 * Takes the challenge the browser signed out of storage (deleted whatever happens next: single use),
 * and refuses it unless it is this account's, for this purpose (and session), and not expired.
 */
async function spendChallenge(ctx: ServiceContext, userId: string, clientDataJSON: string, expected: Binding) {
  const { challengeText } = clientData(clientDataJSON);
  const [row] = await ctx.db
    .delete(passkeyChallenges)
    .where(eq(passkeyChallenges.challengeHash, await sha256Hex(challengeText)))
    .returning();
  if (!row || row.userId !== userId || row.purpose !== expected.purpose) {
    throw invalidPasskey("The challenge is unknown or already used: ask for new options.");
  }
  // Its own expiry (five minutes), and the row's day (a row past it is expired whatever the challenge says).
  if (expiryOfSecret(challengeText) <= Date.now() || Date.parse(row.expiresAt) <= Date.now())
    throw invalidPasskey("The challenge has expired: ask for new options.");
  if (expected.purpose === "approve" && row.nonceHash !== (await approvalBinding(challengeText, expected.nonce))) {
    throw invalidPasskey("The challenge was issued for another request.");
  }
}

const listRows = (ctx: ServiceContext, userId: string) =>
  ctx.db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));

export async function listPasskeys(ctx: ServiceContext, userId: string): Promise<PasskeyView[]> {
  return (await listRows(ctx, userId)).map(view);
}

/**
 * The account's first passkey needs its current password (docs/api-contract.md §Passkeys): a stolen token alone must not
 * enrol a passkey of its own and approve in the owner's name. Later passkeys are confirmed by an existing
 * one instead (confirmHolder). A missing and a wrong password are the same 401.
 */
async function requirePasswordForFirst(ctx: ServiceContext, user: UserRow, existing: number, password: string | undefined): Promise<void> {
  if (existing > 0) return;
  if (password === undefined || !(await checkPassword(ctx, user, password))) {
    throw new ApiError("INVALID_CREDENTIALS", { message: "Enter your account's password to add your first passkey." });
  }
}

/** PublicKeyCredentialCreationOptionsJSON: a resident key with user verification, no attestation. */
export async function registrationOptions(ctx: ServiceContext, user: UserRow, password?: string) {
  const existing = await listRows(ctx, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_ACCOUNT) throw new ApiError("PASSKEY_LIMIT_REACHED");
  await requirePasswordForFirst(ctx, user, existing.length, password);
  const rp = rpOf(ctx);
  return {
    challenge: await issueChallenge(ctx, user.id, { purpose: "register" }),
    rp: { id: rp.id, name: RP_NAME },
    // The WebAuthn user handle is the account id: no email or name is handed to the authenticator
    // beyond the label the user sees in the passkey picker.
    user: { id: toBase64Url(utf8(user.id)), name: user.email, displayName: user.email },
    pubKeyCredParams: [{ type: "public-key" as const, alg: -7 }],
    timeout: TIMEOUT_MS,
    attestation: "none" as const,
    authenticatorSelection: { residentKey: "required" as const, requireResidentKey: true, userVerification: "required" as const },
    excludeCredentials: existing.map((row) => ({ type: "public-key" as const, id: row.credentialId })),
  };
}

/**
 * Changing the passkeys of an account that has one (adding another, removing one) needs an assertion
 * by one of them over a "confirm" challenge: otherwise someone who knows only the password could add
 * their own passkey, or remove the owner's, and approve in their place.
 */
async function confirmHolder(ctx: ServiceContext, userId: string, confirmation: AssertionCredential | undefined): Promise<void> {
  const [{ total } = { total: 0 }] = await ctx.db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  if (total === 0) return;
  if (!confirmation) throw new ApiError("PASSKEY_REQUIRED", { message: "Confirm this change with one of your passkeys." });
  await verifyOwnAssertion(ctx, userId, confirmation, { purpose: "confirm" });
}

/**
 * A fresh assertion by one of the account's passkeys over a "confirm" challenge (confirmationOptions),
 * for an action that must not rest on a sign-in token alone: asking for age tokens (docs/api-contract.md §Age tokens).
 */
export const verifyConfirmation = (ctx: ServiceContext, userId: string, assertion: AssertionCredential): Promise<void> =>
  verifyOwnAssertion(ctx, userId, assertion, { purpose: "confirm" });

/** Request options for confirming a change to the account's passkeys (see confirmHolder). */
export async function confirmationOptions(ctx: ServiceContext, userId: string) {
  const rows = await listRows(ctx, userId);
  if (rows.length === 0) throw notFound("Passkey");
  return requestOptions(ctx, rows, await issueChallenge(ctx, userId, { purpose: "confirm" }));
}

/**
 * "Passkey N" with the first N no passkey of the account is named: the count alone named a passkey
 * added after a removal like one still held ("Passkey 2" twice), and the list could not tell them apart.
 */
function defaultName(taken: string[]): string {
  for (let n = taken.length + 1; ; n++) if (!taken.includes(`Passkey ${n}`)) return `Passkey ${n}`;
}

export async function enrolPasskey(
  ctx: ServiceContext,
  user: UserRow,
  input: {
    name?: string | undefined;
    credential: RegistrationCredential;
    confirmation?: AssertionCredential | undefined;
    password?: string | undefined;
  },
): Promise<PasskeyView> {
  const userId = user.id;
  await spendChallenge(ctx, userId, input.credential.response.clientDataJSON, { purpose: "register" });
  const [{ existing } = { existing: 0 }] = await ctx.db.select({ existing: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  await requirePasswordForFirst(ctx, user, existing, input.password);
  await confirmHolder(ctx, userId, input.confirmation);
  const verified = await verifyRegistration(input.credential, rpOf(ctx));
  const held = await ctx.db.select({ name: passkeys.name }).from(passkeys).where(eq(passkeys.userId, userId));
  if (held.length >= MAX_PASSKEYS_PER_ACCOUNT) throw new ApiError("PASSKEY_LIMIT_REACHED");
  const row: PasskeyRow = {
    id: newId("psk"),
    userId,
    ...verified,
    name: input.name ?? defaultName(held.map((passkey) => passkey.name)),
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  try {
    await ctx.db.insert(passkeys).values(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidPasskey("This passkey is already registered.");
    throw error;
  }
  return view(row);
}

async function ownPasskey(ctx: ServiceContext, userId: string, passkeyId: string): Promise<PasskeyRow> {
  const row = isIdOf("psk", passkeyId)
    ? (
        await ctx.db
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
          .limit(1)
      )[0]
    : undefined;
  if (!row) throw notFound("Passkey");
  return row;
}

export async function renamePasskey(ctx: ServiceContext, userId: string, passkeyId: string, name: string): Promise<PasskeyView> {
  const row = await ownPasskey(ctx, userId, passkeyId);
  await ctx.db.update(passkeys).set({ name }).where(eq(passkeys.id, row.id));
  return view({ ...row, name });
}

export async function removePasskey(
  ctx: ServiceContext,
  userId: string,
  passkeyId: string,
  confirmation: AssertionCredential | undefined,
): Promise<void> {
  const row = await ownPasskey(ctx, userId, passkeyId);
  await confirmHolder(ctx, userId, confirmation);
  await ctx.db.delete(passkeys).where(eq(passkeys.id, row.id));
}

/** PublicKeyCredentialRequestOptionsJSON for approving one session: the challenge is bound to it by its nonce (the caller has checked the session and nonce). */
export async function approvalOptions(ctx: ServiceContext, userId: string, nonce: string) {
  const rows = await listRows(ctx, userId);
  return requestOptions(ctx, rows, await issueChallenge(ctx, userId, { purpose: "approve", nonce }));
}

const requestOptions = (ctx: ServiceContext, rows: PasskeyRow[], challenge: string) => ({
  challenge,
  rpId: rpOf(ctx).id,
  allowCredentials: rows.map((row) => ({ type: "public-key" as const, id: row.credentialId })),
  userVerification: "required" as const,
  timeout: TIMEOUT_MS,
});

/**
 * Verifies an approval's assertion: the session's own unspent challenge, one of this account's
 * passkeys, and the WebAuthn checks; then moves the passkey's counter forward. Any refusal leaves the
 * passkey as it was (the challenge is spent either way).
 */
export const verifyApproval = (ctx: ServiceContext, userId: string, nonce: string, assertion: AssertionCredential) =>
  verifyOwnAssertion(ctx, userId, assertion, { purpose: "approve", nonce });

async function verifyOwnAssertion(ctx: ServiceContext, userId: string, assertion: AssertionCredential, expected: Binding): Promise<void> {
  await spendChallenge(ctx, userId, assertion.response.clientDataJSON, expected);
  const [row] = await ctx.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, assertion.id), eq(passkeys.userId, userId)))
    .limit(1);
  if (!row) throw invalidPasskey("This passkey is not registered to your account.");
  const signCount = await verifyAssertion(assertion, row, rpOf(ctx));
  await ctx.db.update(passkeys).set({ signCount, lastUsedAt: approvalDay() }).where(eq(passkeys.id, row.id));
}
