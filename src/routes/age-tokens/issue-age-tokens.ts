// POST /api/age-tokens: blind-signs 1-10 anonymous age tokens (Privacy Pass token type 2) for the
// signed-in, verified account (docs/api-contract.md §Age tokens, docs/double-blind.md). The account is read once, with its
// verified date of birth and whether it holds a passkey; the issuance itself is the domain's.
import { IssueAgeTokensInput, issueAgeTokensTo, IssueAgeTokensOutput } from "../../domain/age-tokens";
import { verifyConfirmation } from "../../domain/passkeys";
import { accountWithVerifiedDob } from "../../domain/verification";
import { unauthorized } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { namesNoSession } from "./names-no-session";
import { passkeyConfirmation } from "../passkeys/passkey-confirmation";

// Strict: a field of its own (a session id, a nonce) could name a session (./names-no-session.ts).
const IssueInput = z.catchall(
  z.extend(IssueAgeTokensInput, {
    confirmation: passkeyConfirmation(),
  }),
  z.never(),
);

const spec = { method: "post", path: "/", limits: { tokens: LIMITS.ageTokensPerAccount } } as const satisfies RouteSpec;

export const issueAgeTokensRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, issueAgeTokensDoc())),
    // Anything that could name a session is refused before the sign-in is checked.
    namesNoSession,
    jsonBody(IssueInput),
    requireAccountToken,
    async function issueAgeTokens(c) {
      const claims = c.var.accountClaims;
      const [row] = await accountWithVerifiedDob(c.var.ctx, claims.sub);
      if (!row || row.user.tokenVersion !== claims.ver) throw unauthorized();
      c.set("accountChecked", true);
      const holder = { userId: claims.sub, verifiedDateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
      const input = c.req.valid("json");
      const confirmHolder = () => verifyConfirmation(c.var.ctx, claims.sub, input.confirmation!);
      return ok(c, { token_responses: await issueAgeTokensTo(c.var.ctx, holder, input, confirmHolder) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function issueAgeTokensDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Anonymous age tokens for the signed-in, verified end user (Privacy Pass token type 2, blind RSA)",
    description:
      "Blind-signs 1 to 10 TokenRequests (RFC 9578 §6.1) with the current key of the threshold asked for, listed with its age_over in the issuer directory at /.well-known/private-token-issuer-directory. " +
      "The TokenChallenge to build them for names the host of the service as issuer_name and origin_info, with an empty redemption_context, so tokens can be fetched ahead of any session. " +
      "A token later approves a session, without any account, through POST /api/age-verification/session/{id}/complete with age_token; by the blind signature, nothing the service holds connects that redemption to this issuance. " +
      "The account's daily count rises by the number of tokens, before anything is signed (a request over the limit costs no signature); which tokens were issued is not recorded. " +
      "The request names no session: fetch tokens away from any session, with no Referer (referrerPolicy: no-referrer), no X-Session-Nonce and no query string. docs/double-blind.md.",
    responses: {
      200: { description: "One TokenResponse per request, in order", data: IssueAgeTokensOutput },
      400: { description: "The passkey assertion did not verify", codes: ["PASSKEY_INVALID"] },
      403: {
        description:
          "No verified identity (KYC_REQUIRED), a verified age under age_over (AGE_TOKEN_NOT_ALLOWED), or an account with a passkey asking without a fresh assertion (PASSKEY_REQUIRED)",
        codes: ["KYC_REQUIRED", "AGE_TOKEN_NOT_ALLOWED", "PASSKEY_REQUIRED"],
      },
      404: { description: "This deployment offers no age tokens", codes: ["NOT_FOUND"] },
      422: {
        description:
          "A malformed TokenRequest, one for another key or token type, or a threshold not offered; or a request that could name a session (an X-Session-Nonce header, a query string, a Referer with a path or a query, a body field other than age_over, token_requests and confirmation), refused before the sign-in is checked",
        codes: ["VALIDATION_FAILED"],
      },
    },
  };
}
