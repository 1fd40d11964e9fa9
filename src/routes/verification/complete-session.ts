// POST /api/age-verification/session/{id}/complete: the end user answers a session; consent shares
// whether they are old enough, nothing else. Signed in (Bearer), as an account; or with no
// Authorization header and an anonymous age token (docs/api-contract.md §Age tokens), as no one in particular.
import type { MiddlewareHandler } from "hono";
import { anonymousWithoutToken, CompleteInput, completeSession, loadAnswerer, redeemAgeToken } from "../../domain/verification";
import { validationFailed } from "../../errors";
import type { AppEnv } from "../../http/app-env";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc, readMeta, withMeta } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { sessionNonce, sessionNonceHeader } from "../../http/session-nonce";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PolledSession } from "../../session/session-view";
import { noAccountOnDoubleBlind, nonceInHeaderOr } from "./no-account-on-double-blind";
import { linkSession } from "./session-responses";

const spec = {
  method: "post",
  path: "/session/:id/complete",
  limits: { completions: LIMITS.completionsPerAccount, perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

/** The Bearer check when an Authorization header is sent; none at all for the anonymous, token-carrying answer. */
const accountTokenUnlessAnonymous: MiddlewareHandler<AppEnv> = withMeta(
  async (c, next) => (c.req.header("authorization") === undefined ? next() : requireAccountToken(c, next)),
  readMeta(requireAccountToken)!,
);

export const completeSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, completeSessionDoc())),
    // Every answer counts per address, before any Durable Object is reached: the anonymous one has no
    // account to count on, and a signed-in one reaches the session (its double-blind check) before its
    // token is checked, so a made-up token must not open a way around the limit.
    limitPerAddress(spec.limits.perAddress),
    sessionNonceHeader,
    jsonBody(CompleteInput),
    // The session before the account: on a double-blind one a sign-in is refused before it is checked,
    // and nothing of the account (its completion counters) is read or written.
    noAccountOnDoubleBlind(nonceInHeaderOr("json")),
    accountTokenUnlessAnonymous,
    async function answerSession(c) {
      const { nonce: bodyNonce, age_token: ageToken, ...answer } = c.req.valid("json");
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], bodyNonce, "nonce");
      const sessionId = c.req.param("id");
      const claims = c.get("accountClaims") as AppEnv["Variables"]["accountClaims"] | undefined;
      if (!claims) {
        // Anonymous: an age token is the only way in, with consent; nothing is counted against anyone.
        if (ageToken === undefined) throw await anonymousWithoutToken(c.var.ctx, sessionId, nonce);
        if (!answer.consent)
          throw validationFailed([{ path: "consent", message: "An age token approves: send consent: true (to decline, use /decline)." }]);
        return ok(c, await redeemAgeToken(c.var.ctx, sessionId, { nonce, ageToken }));
      }
      // Signed in, a token would only tie the account to this session: it is never taken with a Bearer token.
      if (ageToken !== undefined)
        throw validationFailed([{ path: "age_token", message: "Send an age token without an Authorization header." }]);
      // Validation first (400/422 count nothing), then one D1 batch: the account and its completion counters.
      const answerer = await loadAnswerer(c.var.ctx, claims, spec.limits.completions.accountWindows);
      c.set("accountChecked", true);
      return ok(c, await completeSession(c.var.ctx, answerer, sessionId, { ...answer, nonce }));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function completeSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Answer a session as the end user: consent shares whether you are old enough, nothing else",
    description:
      "Signed in (Bearer): the account answers; a double-blind session refuses any Authorization header (403 DOUBLE_BLIND_REQUIRED) before the credential is checked or anything of the account is read or counted. " +
      "Anonymous (no Authorization header at all): {nonce, consent: true, age_token} approves with assurance KYC_VERIFIED and holder_binding ANONYMOUS_TOKEN, double-blind or not, and spends the token; " +
      "without age_token the 401 carries WWW-Authenticate: PrivateToken challenge=…, token-key=… (RFC 9577 §2.1) for the current keys that meet age_required. " +
      "Every refusal leaves the session PENDING and the token unspent. docs/double-blind.md.",
    responses: {
      200: { description: "Resolved", data: PolledSession },
      400: { description: "The passkey assertion did not verify; the message says which check failed", codes: ["PASSKEY_INVALID"] },
      401: {
        description:
          "No valid Bearer token, and no age_token: with WWW-Authenticate: PrivateToken when the nonce opens a session that tokens can approve",
        codes: ["UNAUTHORIZED"],
      },
      403: {
        description:
          "No verified identity yet, or a consent without a passkey assertion from an account that has a passkey or for a session that requires one, or an age token for a session that requires a passkey (PASSKEY_REQUIRED); an account's approval of a double-blind session (DOUBLE_BLIND_REQUIRED); a way the merchant does not accept (ASSURANCE_NOT_ACCEPTED)",
        codes: ["KYC_REQUIRED", "PASSKEY_REQUIRED", "DOUBLE_BLIND_REQUIRED", "ASSURANCE_NOT_ACCEPTED"],
      },
      409: {
        description:
          "Already answered or expired; or the account's identity document already verifies another account (IDENTITY_ALREADY_VERIFIED); or the age token was already spent (AGE_TOKEN_SPENT)",
        codes: ["SESSION_NOT_PENDING", "IDENTITY_ALREADY_VERIFIED", "AGE_TOKEN_SPENT"],
      },
      422: {
        description:
          "An age token this service did not issue for its own challenge under a published key (AGE_TOKEN_INVALID), or for a threshold below age_required (AGE_TOKEN_INSUFFICIENT); age_token with an Authorization header, or without consent: true (VALIDATION_FAILED)",
        codes: ["AGE_TOKEN_INVALID", "AGE_TOKEN_INSUFFICIENT", "VALIDATION_FAILED"],
      },
      ...linkSession(),
    },
  };
}
