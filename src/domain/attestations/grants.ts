// The single-use secrets of issuance (docs/attestations.md), one attestation_grants row each on the home
// database (they belong to no account): an offer's pre-authorized code with its transaction code, an
// authorization code with its PKCE challenge and redirect_uri, an access token, a c_nonce. A row is
// keyed by an HMAC of the secret under a key derived from SECRETS_KEY, so a copy of the database yields
// neither the secrets nor a way to test guesses of a transaction code. Every redemption is one
// conditional DELETE … RETURNING: of two concurrent uses, exactly one gets the row. A row's expires_at is
// the UTC midnight that ends its day: an offer or a code is made by an account's request, and a
// millisecond expiry, less its lifetime, would name that moment for the logs to join. The exact expiry
// travels in the secret (src/lib/expiring-secret.ts) and is checked first, so no check is looser.
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { ServiceContext } from "../../context/service-context";
import { derivedKey } from "../../config/derived-keys";
import { attestationGrants } from "../../db/schema";
import { hmacHex } from "../../lib/crypto";
import { expiryOfSecret, newExpiringSecret } from "../../lib/expiring-secret";
import { endOfUtcDay } from "../../lib/time";

export type GrantKind = "offer" | "code" | "token" | "nonce";

/** Wrong transaction codes an offer survives: the fifth ends it (a 6-digit code then falls to 5 guesses in a million). */
export const MAX_TX_CODE_ATTEMPTS = 5;

export const GRANT_LIFETIME_SECONDS: Record<GrantKind, number> = { offer: 300, code: 60, token: 300, nonce: 300 };

const keyed = async (ctx: ServiceContext, text: string) => hmacHex(await derivedKey(ctx.settings, "attestation-grants"), text);
/** Whether the expiry the secret carries is still ahead: checked before any row is read or changed. */
const carriesLife = (secret: string, now: number) => expiryOfSecret(secret) > now;

/** A fresh secret of `kind`, stored; returns the secret (never stored) for the one answer that carries it. */
export async function createGrant(
  ctx: ServiceContext,
  kind: GrantKind,
  now: number,
  fields: { txCode?: string; codeChallenge?: string; redirectUri?: string } = {},
): Promise<string> {
  const expiresAt = now + GRANT_LIFETIME_SECONDS[kind] * 1000;
  const secret = newExpiringSecret(expiresAt);
  await ctx.home.insert(attestationGrants).values({
    keyHash: await keyed(ctx, `${kind}:${secret}`),
    kind,
    txCodeHash: fields.txCode === undefined ? null : await keyed(ctx, `tx:${secret}:${fields.txCode}`),
    codeChallenge: fields.codeChallenge ?? null,
    redirectUri: fields.redirectUri ?? null,
    expiresAt: endOfUtcDay(expiresAt),
  });
  return secret;
}

/** Spends a live secret of `kind`: the row's fields once, null for an unknown, expired or spent one. */
export async function spendGrant(ctx: ServiceContext, kind: GrantKind, secret: string, now: number) {
  if (!carriesLife(secret, now)) return null;
  const [row] = await ctx.home
    .delete(attestationGrants)
    .where(
      and(
        eq(attestationGrants.keyHash, await keyed(ctx, `${kind}:${secret}`)),
        eq(attestationGrants.kind, kind),
        gt(attestationGrants.expiresAt, new Date(now).toISOString()),
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether a live secret of `kind` exists, without spending it. */
export async function grantExists(ctx: ServiceContext, kind: GrantKind, secret: string, now: number): Promise<boolean> {
  if (!carriesLife(secret, now)) return false;
  const [row] = await ctx.home
    .select({ kind: attestationGrants.kind })
    .from(attestationGrants)
    .where(
      and(
        eq(attestationGrants.keyHash, await keyed(ctx, `${kind}:${secret}`)),
        eq(attestationGrants.kind, kind),
        gt(attestationGrants.expiresAt, new Date(now).toISOString()),
      ),
    );
  return row !== undefined;
}

/**
 * Redeems an offer's pre-authorized code with its transaction code: true once for the right code on a
 * live offer. A wrong code counts one attempt; the fifth deletes the offer, so no sixth guess is judged.
 * Both are single statements, so concurrent guesses cannot together exceed the five.
 */
export async function redeemOffer(ctx: ServiceContext, preAuthorizedCode: string, txCode: string, now: number): Promise<boolean> {
  if (!carriesLife(preAuthorizedCode, now)) return false;
  const keyHash = await keyed(ctx, `offer:${preAuthorizedCode}`);
  const live = and(
    eq(attestationGrants.keyHash, keyHash),
    eq(attestationGrants.kind, "offer"),
    gt(attestationGrants.expiresAt, new Date(now).toISOString()),
    lt(attestationGrants.failedAttempts, MAX_TX_CODE_ATTEMPTS),
  );
  const redeemed = await ctx.home
    .delete(attestationGrants)
    .where(and(live, eq(attestationGrants.txCodeHash, await keyed(ctx, `tx:${preAuthorizedCode}:${txCode}`))))
    .returning({ keyHash: attestationGrants.keyHash });
  if (redeemed.length > 0) return true;
  const [counted] = await ctx.home
    .update(attestationGrants)
    .set({ failedAttempts: sql`${attestationGrants.failedAttempts} + 1` })
    .where(live)
    .returning({ failedAttempts: attestationGrants.failedAttempts });
  if (counted && counted.failedAttempts >= MAX_TX_CODE_ATTEMPTS)
    await ctx.home.delete(attestationGrants).where(eq(attestationGrants.keyHash, keyHash));
  return false;
}
