// POST /api/auth/resend-verification: a new verification link for the signed-in account.
import { resendVerification } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { accepted } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = {
  method: "post",
  path: "/resend-verification",
  limits: { mails: LIMITS.accountMailsPerAccount, daily: LIMITS.verificationMailsPerAccount },
} as const satisfies RouteSpec;

export const resendVerificationRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, resendVerificationDoc())),
    requireUser,
    async function mailVerificationLink(c) {
      await countUse(c, spec.limits.mails, c.var.user.id);
      await countUse(c, spec.limits.daily, c.var.user.id);
      await resendVerification(c.var.ctx, c.var.user);
      return accepted(c, "A new verification link is on its way.");
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function resendVerificationDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Mail a new verification link",
    responses: { 202: { description: "Sent" }, 409: { description: "Already verified", codes: ["ALREADY_VERIFIED"] } },
  };
}
