// A double-blind session reads no account (docs/double-blind.md "The service never holds the account
// and the session together"): on every route the person's page calls with the session's nonce, a
// request that carries an Authorization header is refused with 403 DOUBLE_BLIND_REQUIRED before its
// credential is even verified, so the service never holds an account and such a session in one request.
// Placed before the route's Bearer check and after the validators that hold the nonce; the session it
// read is handed on (`openedSession`), so a route that goes on to read it does not call its object twice.
import type { Context, MiddlewareHandler } from "hono";
import { sessionOpenedBy } from "../../domain/verification";
import { ApiError } from "../../errors";
import type { AppEnv } from "../../http/app-env";
import type { Responses } from "../../http/openapi-meta";

/** The refusal's OpenAPI prose, for every route the person's page calls: on a double-blind session, a request with an Authorization header is refused before its credential is checked (docs/double-blind.md). */
export const ACCOUNT_ON_DOUBLE_BLIND =
  "A request with an Authorization header on a double-blind session (DOUBLE_BLIND_REQUIRED), refused before the credential is checked: nothing of an account is read";
export const accountOnDoubleBlind = { 403: { description: ACCOUNT_ON_DOUBLE_BLIND, codes: ["DOUBLE_BLIND_REQUIRED"] } } satisfies Responses;

/** Every place the route carries the nonce: read from the request after its validators ran. */
export type NonceOf = (c: Context<AppEnv>) => (string | undefined)[];

const validatedNonce = (c: Context<AppEnv>, target: "query" | "json"): string | undefined =>
  ((c.req.valid as unknown as (t: string) => { nonce?: unknown } | undefined)(target)?.nonce as string | undefined) ?? undefined;

/** X-Session-Nonce, as the page sends it (the digital-id routes take it nowhere else). */
export const nonceInHeader: NonceOf = (c) => [c.req.header("x-session-nonce")];
/**
 * X-Session-Nonce and the 1.0.0 place (`?nonce=`, or `nonce` in the body) once its validator ran: both,
 * since a wrong header beside the session's own nonce in the 1.0.0 place still names the session.
 */
export const nonceInHeaderOr =
  (place: "query" | "json"): NonceOf =>
  (c) => [c.req.header("x-session-nonce"), validatedNonce(c, place)];

export function noAccountOnDoubleBlind(nonceOf: NonceOf): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.header("authorization") === undefined) return next();
    // No nonce, or one of a shape no session has: the route answers as it would (404, 422).
    const nonces = [...new Set(nonceOf(c))].filter(
      (nonce): nonce is string => nonce !== undefined && nonce.length > 0 && nonce.length <= 128,
    );
    // Two that differ are refused by the route (422) after its sign-in; each is looked at first, so
    // neither reaches an account when it opens a double-blind session.
    for (const nonce of nonces) {
      const opened = await sessionOpenedBy(c.var.ctx, c.req.param("id") ?? "", nonce);
      if (opened?.double_blind) throw new ApiError("DOUBLE_BLIND_REQUIRED");
      if (opened && nonces.length === 1) c.set("openedSession", opened);
    }
    return next();
  };
}
