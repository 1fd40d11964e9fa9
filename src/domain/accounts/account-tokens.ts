// Issues the account JWT for a user at its current token version.
import { secret } from "../../config/settings";
import type { UserRow } from "../../db/schema";
import { signAccountToken } from "../../lib/jwt";
import type { ServiceContext } from "../../context/service-context";

export const issueAccountToken = (ctx: ServiceContext, user: Pick<UserRow, "id" | "tokenVersion">) =>
  signAccountToken(secret(ctx.settings, "JWT_SECRET"), user.id, user.tokenVersion);
