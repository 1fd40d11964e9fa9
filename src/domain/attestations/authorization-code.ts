// The authorization code flow (RFC 6749 §4.1 with PKCE, RFC 7636; docs/attestations.md). Wallets are
// public clients: any client_id, no registration. What protects the person instead: the code goes only to
// the redirect_uri shown on the consent page, which must be https or a wallet's own scheme (an allowlist,
// below); it is bound to that redirect_uri and to an S256 challenge (plain is refused: it proves nothing
// against whoever saw the request); it lives 60 seconds and is used once.
import type { ServiceContext } from "../../context/service-context";
import { toBase64Url, utf8 } from "../../lib/encoding";
import { timingSafeEqual } from "../../lib/crypto";
import { createGrant } from "./grants";
import { PROOF_OF_AGE_CONFIGURATION } from "./metadata";
import { oauthError } from "./oauth-error";

export type AuthorizationRequest = { client_id: string; redirect_uri: string; code_challenge: string; state?: string };

/**
 * A wallet's own scheme, as RFC 8252 §7.1 asks of a private-use URI scheme: a domain name its publisher
 * controls, in reverse order (the EU wallet's `eu.europa.ec.euidi:`). At least two labels of letters,
 * digits and hyphens, so no scheme a browser or an operating system gives a meaning of its own
 * (javascript:, data:, file:, blob:, intent:, http:, …) ever matches. URL lower-cases the scheme.
 */
const REVERSE_DOMAIN_SCHEME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/;
/** What may receive a code: an https URL, or a wallet's reverse-domain scheme. Nothing else (docs/attestations.md). */
const mayReceiveCode = (url: URL) => url.protocol === "https:" || REVERSE_DOMAIN_SCHEME.test(url.protocol);
/** RFC 7636 §4.2: a base64url SHA-256 is 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_PARAMETER = 2048;
/**
 * An https redirect_uri's host as DNS names and IP addresses are written (URL gives an IDN as punycode,
 * IPv4 dotted, IPv6 in brackets). URL also takes hosts such as `*`, `a;b`, `a,b` or `'self'`, which no
 * browser can reach and which are Content-Security-Policy syntax: the consent page's policy names the
 * redirect_uri's origin as the one place its form may lead (authorize-page.tsx), and `https://*` there
 * would let it lead anywhere.
 */
const REACHABLE_HOST = /^(?:[a-z0-9_-]+\.)*[a-z0-9_-]+\.?$|^\[[0-9a-f:.]+\]$/;

/** Null when `uri` may receive a code, else why not. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "redirect_uri is not an absolute URI.";
  }
  if (!mayReceiveCode(url))
    return "redirect_uri must be an https URL or a wallet's own scheme in reverse-domain form (RFC 8252 §7.1, e.g. com.example.wallet:/cb).";
  if (url.hash !== "") return "redirect_uri must not have a fragment.";
  if (url.protocol === "https:" && !REACHABLE_HOST.test(url.hostname)) return "redirect_uri's host must be a domain name or an IP address.";
  return null;
}

/**
 * The authorization request's parameters checked (GET /authorize and the consent page's approval): the
 * request the consent page may show, or invalid_request naming the problem.
 */
export function checkAuthorizationRequest(query: Record<string, string | undefined>): AuthorizationRequest {
  for (const value of Object.values(query))
    if (value !== undefined && value.length > MAX_PARAMETER) throw oauthError("invalid_request", "A parameter is too long.");
  if (query.response_type !== "code") throw oauthError("invalid_request", "response_type must be code.");
  if (query.scope !== PROOF_OF_AGE_CONFIGURATION) throw oauthError("invalid_request", `scope must be ${PROOF_OF_AGE_CONFIGURATION}.`);
  if (!query.client_id) throw oauthError("invalid_request", "client_id is required.");
  if (!query.redirect_uri) throw oauthError("invalid_request", "redirect_uri is required.");
  const uriProblem = redirectUriProblem(query.redirect_uri);
  if (uriProblem) throw oauthError("invalid_request", uriProblem);
  if (!query.code_challenge) throw oauthError("invalid_request", "code_challenge is required (PKCE, S256).");
  if (query.code_challenge_method !== "S256") throw oauthError("invalid_request", "code_challenge_method must be S256.");
  if (!S256_CHALLENGE.test(query.code_challenge)) throw oauthError("invalid_request", "code_challenge must be a base64url SHA-256.");
  return { client_id: query.client_id, redirect_uri: query.redirect_uri, code_challenge: query.code_challenge, state: query.state };
}

/** Where the browser goes with a fresh code: the redirect_uri with `code`, `state` and `iss` (RFC 9207). */
export async function issueAuthorizationCode(ctx: ServiceContext, request: AuthorizationRequest, now: number): Promise<string> {
  const code = await createGrant(ctx, "code", now, { codeChallenge: request.code_challenge, redirectUri: request.redirect_uri });
  const target = new URL(request.redirect_uri);
  target.searchParams.set("code", code);
  if (request.state !== undefined) target.searchParams.set("state", request.state);
  target.searchParams.set("iss", ctx.settings.appUrl);
  return target.toString();
}

/** Whether `verifier` is the one whose S256 challenge the code was bound to (constant-time on the challenge). */
export async function verifierMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!CODE_VERIFIER.test(verifier)) return false;
  const computed = toBase64Url(await crypto.subtle.digest("SHA-256", utf8(verifier)));
  return timingSafeEqual(computed, challenge);
}
