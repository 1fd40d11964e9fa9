// DELETE /api/users/account: removes the user row; D1 cascades remove its email tokens, KYC record,
// API keys (so they stop authenticating at once) and, for a business, its session log.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { users } from "../db/schema";
import type { UserRow } from "../env";
import { ApiError } from "../errors";

export async function deleteAccount(db: Database, user: UserRow): Promise<void> {
  if (!user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED", 403, "Verify your email address before deleting the account.");
  await db.delete(users).where(eq(users.id, user.id));
}
