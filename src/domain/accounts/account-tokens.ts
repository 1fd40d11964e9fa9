// Issues the account JWT for a user at its current token version.
import { secret } from "../../config/settings";
import type { UserRow } from "../../db/schema";
import { signAccountToken } from "../../lib/jwt";
import type { DomainContext } from "../../context/service-context";

export const issueAccountToken = (ctx: DomainContext, user: Pick<UserRow, "id" | "tokenVersion">) =>
  signAccountToken(secret(ctx.env, "JWT_SECRET"), user.id, user.tokenVersion);
