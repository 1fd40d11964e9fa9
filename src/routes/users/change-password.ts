// POST /api/users/change-password: a new password and a fresh token; every earlier token stops working.
import { changePassword, ChangePasswordInput } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { changePasswordDoc } from "./docs";

const spec = { method: "post", path: "/change-password", limits: { changes: LIMITS.passwordChangesPerAccount } } as const satisfies RouteSpec;

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
