// Account JWTs: HS256 only (pinned on verify), iss/aud checked, exp required.
import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from "./encoding";

export const JWT_ISSUER = "age-verification-service";
export const JWT_AUDIENCE = "age-verification-api";
export const JWT_LIFETIME_SECONDS = 12 * 60 * 60;

export type AccountClaims = { sub: string; ver: number; iss: string; aud: string; iat: number; exp: number };

const HEADER = toBase64Url(utf8(JSON.stringify({ alg: "HS256", typ: "JWT" })));

const hmacKey = (secret: string, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);

export async function signAccountToken(
  secret: string,
  userId: string,
  tokenVersion: number,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<string> {
  const claims: AccountClaims = {
    sub: userId,
    ver: tokenVersion,
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    iat: nowSeconds,
    exp: nowSeconds + JWT_LIFETIME_SECONDS,
  };
  const signingInput = `${HEADER}.${toBase64Url(utf8(JSON.stringify(claims)))}`;
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), utf8(signingInput));
  return `${signingInput}.${toBase64Url(signature)}`;
}

/** The claims of a valid token, or null for anything else: wrong shape, algorithm, signature, issuer, audience or time. */
export async function verifyAccountToken(
  secret: string,
  token: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<AccountClaims | null> {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  try {
    const parsedHeader = JSON.parse(fromUtf8(fromBase64Url(header))) as Record<string, unknown>;
    if (parsedHeader.alg !== "HS256") return null;
    const valid = await crypto.subtle.verify(
      "HMAC",
      await hmacKey(secret, "verify"),
      fromBase64Url(signature),
      utf8(`${header}.${payload}`),
    );
    if (!valid) return null;
    const claims = JSON.parse(fromUtf8(fromBase64Url(payload))) as Partial<AccountClaims>;
    if (claims.iss !== JWT_ISSUER || claims.aud !== JWT_AUDIENCE) return null;
    if (typeof claims.sub !== "string" || typeof claims.ver !== "number") return null;
    if (typeof claims.exp !== "number" || claims.exp <= nowSeconds) return null;
    // iat is read as the sign-in's time (account deletion asks for a recent one): never absent.
    if (typeof claims.iat !== "number") return null;
    return claims as AccountClaims;
  } catch {
    return null;
  }
}
