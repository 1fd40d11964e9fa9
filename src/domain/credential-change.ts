// Password change and email change for a signed-in account. Both sign out every earlier token.
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { secret } from "../config";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { Bindings, UserRow } from "../env";
import { hashPassword } from "../lib/password";
import { nowIso } from "../lib/time";
import { deliverMail } from "../mail/deliver";
import { confirmEmailChangeMail } from "../mail/messages";
import { issueAccountToken } from "./account-tokens";
import { consumeEmailToken, invalidToken, issueEmailToken } from "./email-tokens";
import { emailTaken } from "./registration";
import { checkPassword, invalidCredentials } from "./sign-in";
import { isUniqueViolation } from "./unique-violation";
import { EmailField, findUserByEmail, PasswordField, toUser } from "./users";

export const ChangePasswordInput = z.object({ currentPassword: z.string().min(1).max(128), newPassword: PasswordField });
export const ChangeEmailInput = z.object({ newEmail: EmailField, password: z.string().min(1).max(128) });
export const TokenInput = z.object({ token: z.string().min(1).max(200) });

/** Returns a fresh token: the caller's old one stops working with every other. */
export async function changePassword(db: Database, env: Bindings, user: UserRow, input: z.infer<typeof ChangePasswordInput>) {
  if (!(await checkPassword(db, env, user, input.currentPassword))) throw invalidCredentials();
  const [updated] = await db
    .update(users)
    .set({
      passwordHash: await hashPassword(input.newPassword, secret(env, "PASSWORD_PEPPER")),
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: nowIso(),
    })
    .where(eq(users.id, user.id))
    .returning();
  return issueAccountToken(env, updated!);
}

export async function requestEmailChange(db: Database, env: Bindings, user: UserRow, input: z.infer<typeof ChangeEmailInput>) {
  if (!(await checkPassword(db, env, user, input.password))) throw invalidCredentials();
  if (input.newEmail === user.email || (await findUserByEmail(db, input.newEmail))) throw emailTaken();
  const token = await issueEmailToken(db, user.id, "change_email", input.newEmail);
  await deliverMail(env, confirmEmailChangeMail(env, input.newEmail, token), "confirm-email-change");
}

/** The new address is verified by the click itself. */
export async function confirmEmailChange(db: Database, token: string) {
  const used = await consumeEmailToken(db, token, "change_email");
  if (!used.newEmail) throw invalidToken();
  try {
    const [row] = await db
      .update(users)
      .set({ email: used.newEmail, emailVerified: true, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: nowIso() })
      .where(eq(users.id, used.userId))
      .returning();
    if (!row) throw invalidToken();
    return toUser(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken(); // someone registered the address meanwhile
    throw error;
  }
}
