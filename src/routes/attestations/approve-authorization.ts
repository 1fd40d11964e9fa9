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
import { describe } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { approveAuthorizationDoc } from "./docs";
import { ApproveAuthorizationInput } from "./schemas";

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
