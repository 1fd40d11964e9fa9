// The configured versions of each rotating secret, current first (docs/operations.md, "Rotating
// secrets"). A previous version is set only while a rotation is under way.
import { JWT_LIFETIME_SECONDS, verifyAccountToken, type AccountClaims } from "../lib/jwt";
import { secret, type Settings } from "./settings";

const withPrevious = (current: string, previous: string | undefined): string[] => (previous ? [current, previous] : [current]);

/** SECRETS_KEY versions: new rows are sealed under the first; a row opens under the one its tag names. */
export const secretsKeys = (settings: Settings): string[] => withPrevious(secret(settings, "SECRETS_KEY"), settings.secretsKeyPrevious);

/** PASSWORD_PEPPER versions: new hashes use the first; a login under the second re-hashes. */
export const passwordPeppers = (settings: Settings): string[] =>
  withPrevious(secret(settings, "PASSWORD_PEPPER"), settings.passwordPepperPrevious);

/**
 * An account JWT signed with JWT_SECRET, or with JWT_SECRET_PREVIOUS when it was issued before the
 * rotation (JWT_SECRET_ROTATED_AT) and one token lifetime has not passed since: every token that old
 * secret signed has expired by then, so it is refused from then on even if still configured.
 */
export async function verifyAccountTokenAnyVersion(
  settings: Settings,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<AccountClaims | null> {
  const current = await verifyAccountToken(secret(settings, "JWT_SECRET"), token, nowSeconds);
  if (current) return current;
  const previous = settings.jwtSecretPrevious;
  const rotatedAt = settings.jwtSecretRotatedAt;
  if (!previous || Number.isNaN(rotatedAt) || nowSeconds >= rotatedAt + JWT_LIFETIME_SECONDS) return null;
  const claims = await verifyAccountToken(previous, token, nowSeconds);
  return claims && claims.iat <= rotatedAt ? claims : null;
}
