// Email verification: the token mailed at registration (or on resend) marks the address verified.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { Bindings } from "../config";
import type { UserRow } from "../db/schema";
import { ApiError } from "../errors";
import { nowIso } from "../lib/time";
import { deliverMail } from "../mail/deliver";
import { verifyEmailMail } from "../mail/messages";
import { consumeEmailToken, invalidToken, issueEmailToken } from "./email-tokens";
import { toUser } from "./users";

export async function verifyEmail(db: Database, token: string) {
  const used = await consumeEmailToken(db, token, "verify");
  const [row] = await db
    .update(users)
    .set({ emailVerified: true, updatedAt: nowIso() })
    .where(eq(users.id, used.userId))
    .returning();
  if (!row) throw invalidToken();
  return toUser(row);
}

export async function resendVerification(db: Database, env: Bindings, user: UserRow) {
  if (user.emailVerified) throw new ApiError("ALREADY_VERIFIED");
  const token = await issueEmailToken(db, user.id, "verify");
  await deliverMail(env, verifyEmailMail(env, user.email, token), "verify-email");
}
