// Single-use email tokens (verify, reset, change-email): random, stored only as SHA-256, expiring. The
// token names the account's shard (src/lib/shard-tag.ts), so the link's route finds it without a lookup.
import { and, eq, gt, isNull } from "drizzle-orm";
import { ApiError } from "../../errors";
import type { Database } from "../../db/client";
import { emailTokens } from "../../db/schema";
import { sha256Hex } from "../../lib/crypto";
import { newTaggedValue } from "../../lib/shard-tag";
import { chosenShard, shardOfEmailToken } from "../../context/shard-routing";
import { addSeconds, nowIso } from "../../lib/time";
import type { ServiceContext } from "../../context/service-context";

export type TokenPurpose = "verify" | "reset" | "change_email";

const LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verify: 24 * 60 * 60,
  reset: 60 * 60,
  change_email: 24 * 60 * 60,
};

export const invalidToken = () => new ApiError("INVALID_TOKEN");

/** The context on the shard a mailed token names. */
export const onEmailTokenShard = async (ctx: ServiceContext, token: string) => ctx.onShard(await shardOfEmailToken(ctx, token));

/** A new token for the purpose; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  ctx: ServiceContext,
  userId: string,
  purpose: TokenPurpose,
  newEmail: string | null = null,
): Promise<string> {
  const { db } = ctx;
  const token = await newTaggedValue(32, chosenShard(ctx));
  const now = nowIso();
  await db.batch([
    db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt))),
    db.insert(emailTokens).values({
      tokenHash: await sha256Hex(token),
      userId,
      purpose,
      newEmail,
      expiresAt: addSeconds(now, LIFETIME_SECONDS[purpose]),
      createdAt: now,
    }),
  ]);
  return token;
}

/** Marks the token used and returns it, in one statement, so two concurrent uses cannot both win. */
export async function consumeEmailToken({ db }: ServiceContext, token: string, purpose: TokenPurpose) {
  const now = nowIso();
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, await sha256Hex(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw invalidToken();
  return row;
}

/**
 * Every unused email link of the account stops working: part of signing out everywhere, so a reset or
 * an email change started by someone who is being locked out cannot be finished later.
 */
export const revokeEmailTokens = (db: Database, userId: string) =>
  db
    .update(emailTokens)
    .set({ usedAt: nowIso() })
    .where(and(eq(emailTokens.userId, userId), isNull(emailTokens.usedAt)));
