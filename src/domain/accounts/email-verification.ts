// Email verification: the token mailed at registration (or on resend) marks the address verified.
import { eq } from "drizzle-orm";
import { users, type UserRow } from "../../db/schema";
import { ApiError } from "../../errors";
import { nowIso } from "../../lib/time";
import { deliverMail } from "../../mail/send-account-mail";
import { verifyEmailMail } from "../../mail/messages";
import { mailLinkBase, type ServiceContext } from "../../context/service-context";
import { consumeEmailToken, invalidToken, issueEmailToken, onEmailTokenShard } from "./email-links";
import { toUser } from "./users";

export async function verifyEmail(root: ServiceContext, token: string) {
  const ctx = await onEmailTokenShard(root, token);
  const used = await consumeEmailToken(ctx, token, "verify");
  const [row] = await ctx.db.update(users).set({ emailVerified: true, updatedAt: nowIso() }).where(eq(users.id, used.userId)).returning();
  if (!row) throw invalidToken();
  return toUser(row);
}

export async function resendVerification(ctx: ServiceContext, user: UserRow) {
  if (user.emailVerified) throw new ApiError("ALREADY_VERIFIED");
  const token = await issueEmailToken(ctx, user.id, "verify");
  await deliverMail(ctx, verifyEmailMail(mailLinkBase(ctx), user.email, token, user.locale), "verify-email");
}
