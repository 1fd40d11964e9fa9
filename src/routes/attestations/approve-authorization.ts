// POST /api/attestations/authorizations: the consent page's approval of a wallet's authorization request
// (docs/attestations.md). The person is signed in (Bearer) and has seen where the code will go; the
// request is checked again as GET /authorize checked it (422 here: this is the service's own API), the
// batch is authorized and counted, and the answer is where the page sends the browser.
import {
  authorizeBatch,
  checkAuthorizationRequest,
  issueAuthorizationCode,
  OAuthError,
  type AuthorizationRequest,
} from "../../domain/attestations";
import { verifyConfirmation } from "../../domain/passkeys";
import { accountWithVerifiedDob } from "../../domain/verification";
import { unauthorized, validationFailed } from "../../errors";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { refusals, WHO } from "./create-offer";
import { ApproveAuthorizationInput } from "./schemas";

/** The answer: where the consent page sends the browser. Read only by the prose below. */
const AuthorizationApproval = z.object({
  redirect_to: z.string().check(z.describe(OPENAPI_METADATA ? "The wallet's redirect_uri with code, state and iss" : "")),
});

const spec = {
  method: "post",
  path: "/authorizations",
  limits: { batches: LIMITS.attestationBatchesPerAccount },
} as const satisfies RouteSpec;

export const approveAuthorizationRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, approveAuthorizationDoc())),
    requireAccountToken,
    jsonBody(ApproveAuthorizationInput),
    async function approveAuthorization(c) {
      const { confirmation, ...query } = c.req.valid("json");
      let request: AuthorizationRequest;
      try {
        request = checkAuthorizationRequest(query);
      } catch (error) {
        if (error instanceof OAuthError) throw validationFailed([{ path: "(body)", message: error.description }]);
        throw error;
      }
      const claims = c.var.accountClaims;
      const [row] = await accountWithVerifiedDob(c.var.ctx, claims.sub);
      if (!row || row.user.tokenVersion !== claims.ver) throw unauthorized();
      c.set("accountChecked", true);
      const holder = { userId: claims.sub, verifiedDateOfBirth: row.verifiedDob ?? null, hasPasskey: Boolean(row.hasPasskey) };
      const now = Date.now();
      await authorizeBatch(
        c.var.ctx,
        holder,
        confirmation !== undefined,
        () => verifyConfirmation(c.var.ctx, claims.sub, confirmation!),
        now,
      );
      return ok(c, { redirect_to: await issueAuthorizationCode(c.var.ctx, request, now) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function approveAuthorizationDoc(): OperationDoc {
  return {
    tag: "Attestations",
    summary: "Approve a wallet's authorization request for proof-of-age attestations (authorization code with PKCE)",
    description:
      "Called by the service's own consent page (GET /authorize) once the person has signed in and agreed: answers where to send the browser, the wallet's redirect_uri with a code (60 seconds, single use, bound to that redirect_uri and to the S256 code_challenge) and the state. " +
      "The request's parameters are those of GET /authorize, checked again (422 VALIDATION_FAILED: response_type code, scope proof_of_age, S256 only, redirect_uri https with a domain name or IP address as its host, or a wallet's own scheme in reverse-domain form, RFC 8252 §7.1, such as eu.europa.ec.euidi://authorization). " +
      WHO +
      "docs/attestations.md.",
    responses: {
      200: { description: "Where the browser goes with the code", data: AuthorizationApproval },
      ...refusals,
      422: { description: "The authorization request is not one this service answers", codes: ["VALIDATION_FAILED"] },
    },
  };
}
