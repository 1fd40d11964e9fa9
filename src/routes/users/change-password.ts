// POST /api/users/change-password: a new password and a fresh token; every earlier token stops working.
import { changePassword, ChangePasswordInput } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { wrongPassword } from "./change-email";

const spec = {
  method: "post",
  path: "/change-password",
  limits: { changes: LIMITS.passwordChangesPerAccount },
} as const satisfies RouteSpec;

export const changePasswordRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, changePasswordDoc())),
    requireUser,
    jsonBody(ChangePasswordInput),
    async function replacePassword(c) {
      // Before the password check: a stolen token must not be able to guess the current password without end.
      await countUse(c, spec.limits.changes, c.var.user.id);
      return ok(c, { token: await changePassword(c.var.ctx, c.var.user, c.req.valid("json")) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function changePasswordDoc(): OperationDoc {
  return {
    tag: "Users",
    summary: "Change the password (spec endpoint 6); returns a fresh token, every earlier one stops working",
    responses: { 200: { description: "Changed", data: z.object({ token: z.string() }) }, ...wrongPassword },
  };
}
