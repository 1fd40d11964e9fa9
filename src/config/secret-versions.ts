// The configured versions of each rotating secret, current first (docs/operations.md, "Rotating
// secrets"). A previous version is set only while a rotation is under way.
import { secret, type Bindings } from "./settings";
import { JWT_LIFETIME_SECONDS, verifyAccountToken, type AccountClaims } from "../lib/jwt";

const withPrevious = (current: string, previous: string | undefined): string[] => (previous ? [current, previous] : [current]);

/** SECRETS_KEY versions: new rows are sealed under the first; a row opens under the one its tag names. */
export const secretsKeys = (env: Bindings): string[] => withPrevious(secret(env, "SECRETS_KEY"), env.SECRETS_KEY_PREVIOUS);

/** PASSWORD_PEPPER versions: new hashes use the first; a login under the second re-hashes. */
export const passwordPeppers = (env: Bindings): string[] => withPrevious(secret(env, "PASSWORD_PEPPER"), env.PASSWORD_PEPPER_PREVIOUS);

/**
 * An account JWT signed with JWT_SECRET, or with JWT_SECRET_PREVIOUS when it was issued before the
 * rotation (JWT_SECRET_ROTATED_AT) and one token lifetime has not passed since: every token that old
 * secret signed has expired by then, so it is refused from then on even if still configured.
 */
export async function verifyAccountTokenAnyVersion(env: Bindings, token: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<AccountClaims | null> {
  const current = await verifyAccountToken(secret(env, "JWT_SECRET"), token, nowSeconds);
  if (current) return current;
  const previous = env.JWT_SECRET_PREVIOUS;
  const rotatedAt = Date.parse(env.JWT_SECRET_ROTATED_AT ?? "") / 1000;
  if (!previous || Number.isNaN(rotatedAt) || nowSeconds >= rotatedAt + JWT_LIFETIME_SECONDS) return null;
  const claims = await verifyAccountToken(previous, token, nowSeconds);
  return claims && claims.iat <= rotatedAt ? claims : null;
}
