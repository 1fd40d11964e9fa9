// DELETE /api/users/account: a business's pending sessions expire at once and their objects forget
// them; then the user row goes, and D1 cascades remove its email tokens, KYC record, API keys (so they
// stop authenticating at once) and, for a business, its session log and callback events. No callback
// reaches a deleted merchant: its signing secrets are gone with its keys. Resolved sessions' objects
// forget them on their own after the retention period.
import { and, eq } from "drizzle-orm";
import { users, verificationSessions } from "../db/schema";
import type { UserRow } from "../db/schema";
import { ApiError } from "../errors";
import type { DomainContext } from "./context";
import { sessionStub } from "./verification";

export async function deleteAccount(ctx: DomainContext, user: UserRow): Promise<void> {
  const { db } = ctx;
  if (!user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED");
  if (user.userType === "BUSINESS") {
    const pending = await db
      .select({ id: verificationSessions.id })
      .from(verificationSessions)
      .where(and(eq(verificationSessions.accountId, user.id), eq(verificationSessions.status, "PENDING")));
    await Promise.all(pending.map(({ id }) => sessionStub(ctx, id).closeForDeletedAccount()));
  }
  await db.delete(users).where(eq(users.id, user.id));
}
