// Login and logout (docs/api-contract.md §Auth).
import { eq, sql } from "drizzle-orm";
import * as z from "../../lib/lazy-zod";
import { secret } from "../../config/settings";
import { users, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "../../lib/password";
import { nowIso } from "../../lib/time";
import { passwordPeppers } from "../../config/secret-versions";
import { issueAccountToken } from "./account-tokens";
import type { ServiceContext } from "../../context/service-context";
import type { Database } from "../../db/client";
import { revokeEmailTokens } from "./email-links";
import { EmailField, toUser } from "./users";
import { findAccountByEmail } from "./account-directory";

export const LoginInput = z.object({ email: EmailField, password: z.string().check(z.minLength(1), z.maxLength(128)) });

export const invalidCredentials = () => new ApiError("INVALID_CREDENTIALS");

/** Checks a password against the account's hash; re-hashes it when the stored parameters or pepper are older. */
export async function checkPassword({ db, settings }: ServiceContext, user: UserRow, password: string): Promise<boolean> {
  const peppers = passwordPeppers(settings);
  const check = await verifyPassword(password, user.passwordHash, peppers);
  if (check.needsRehash) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password, peppers[0]!) })
      .where(eq(users.id, user.id));
  }
  return check.valid;
}

export async function login(root: ServiceContext, input: z.infer<typeof LoginInput>) {
  const found = await findAccountByEmail(root, input.email);
  if (!found) {
    // Same work as a real check, so the answer time does not reveal whether the account exists.
    await verifyPassword(input.password, DUMMY_PASSWORD_HASH, secret(root.settings, "PASSWORD_PEPPER"));
    throw invalidCredentials();
  }
  const { user, ctx } = found;
  if (!(await checkPassword(ctx, user, input.password))) throw invalidCredentials();
  return { user: toUser(user), token: await issueAccountToken(ctx, user) };
}

/**
 * Every JWT and email link issued before stops working: the token version moves on and unused email
 * tokens are spent, in one batch. `changes` are further columns to set in the same update.
 */
/** The statements of signOutEverywhere, for a caller that writes more in the same batch. */
export const signOutStatements = (db: Database, userId: string, changes: Partial<typeof users.$inferInsert> = {}) =>
  [
    db
      .update(users)
      .set({ ...changes, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: nowIso() })
      .where(eq(users.id, userId))
      .returning(),
    revokeEmailTokens(db, userId),
  ] as const;

export async function signOutEverywhere({ db }: ServiceContext, userId: string, changes: Partial<typeof users.$inferInsert> = {}) {
  const [updated] = await db.batch(signOutStatements(db, userId, changes));
  return updated[0];
}
