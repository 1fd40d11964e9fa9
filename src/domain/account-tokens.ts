// Issues the account JWT for a user at its current token version.
import { secret } from "../config";
import type { Bindings } from "../config";
import type { UserRow } from "../db/schema";
import { signAccountToken } from "../lib/jwt";

export const issueAccountToken = (env: Bindings, user: Pick<UserRow, "id" | "tokenVersion">) =>
  signAccountToken(secret(env, "JWT_SECRET"), user.id, user.tokenVersion);
