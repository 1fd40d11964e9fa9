// POST /api/auth/reset-password: a new password with the mailed token; every earlier sign-in ends.
import { resetPassword, ResetPasswordInput } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { badToken } from "./confirm-email-change";

const spec = {
  method: "post",
  path: "/reset-password",
  limits: { perAddress: LIMITS.passwordResetsPerAddress },
} as const satisfies RouteSpec;

export const resetPasswordRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, resetPasswordDoc())),
    limitPerAddress(spec.limits.perAddress),
    jsonBody(ResetPasswordInput),
    async function setNewPassword(c) {
      await resetPassword(c.var.ctx, c.req.valid("json"));
      return c.json({ success: true, message: "Password changed. Sign in with the new password." });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function resetPasswordDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Set a new password with the mailed token; signs out everywhere",
    responses: { 200: { description: "Password changed" }, ...badToken },
  };
}
