// POST /api/auth/forgot-password: mails a reset link, answering the same for known and unknown addresses.
import { ForgotPasswordInput, requestPasswordReset } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse, limitPerAddress } from "../../http/rate-limit";
import { accepted } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = {
  method: "post",
  path: "/forgot-password",
  limits: {
    perAddress: LIMITS.resetRequestsPerAddress,
    mailsPerEmail: LIMITS.resetMailsPerEmail,
    mailsPerEmailDaily: LIMITS.resetMailsPerEmailDaily,
  },
} as const satisfies RouteSpec;

export const forgotPasswordRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, forgotPasswordDoc())),
    limitPerAddress(spec.limits.perAddress),
    jsonBody(ForgotPasswordInput),
    async function mailResetLink(c) {
      const { email } = c.req.valid("json");
      // Per address above, and per email here, so that no one can flood one mailbox from many addresses.
      await countUse(c, spec.limits.mailsPerEmail, email);
      // And per day: the same count for every address, with an account or not, before the answer.
      await countUse(c, spec.limits.mailsPerEmailDaily, email);
      // The lookup, token and mail run after the answer (waitUntil), so an unknown address answers in
      // the same time as a known one and the timing cannot tell which addresses have accounts.
      c.executionCtx.waitUntil(requestPasswordReset(c.var.ctx, email));
      return accepted(c, "If an account uses this address, a reset link is on its way.");
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function forgotPasswordDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Mail a password-reset link",
    description:
      "Always 202 with the same body, whether or not the address has an account; the lookup and the mail happen after the answer, so its timing does not tell either.",
    responses: { 202: { description: "Accepted" } },
  };
}
