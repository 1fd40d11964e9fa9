// DELETE /api/users/account: removes the account's personal data, revokes its keys, expires its pending sessions.
import { deleteAccount, DeleteAccountInput } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { deleteAccountDoc } from "./docs";

const spec = { method: "delete", path: "/account", limits: { passwordChecks: LIMITS.passwordChangesPerAccount } } as const satisfies RouteSpec;

export const deleteAccountRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, deleteAccountDoc())),
    requireUser,
    jsonBody(DeleteAccountInput),
    async function removeAccount(c) {
      const { password } = c.req.valid("json");
      // A password sent is a password guessed: on the account's own password counter (docs/limits.md).
      if (password !== undefined) await countUse(c, spec.limits.passwordChecks, c.var.user.id);
      await deleteAccount(c.var.ctx, c.var.user, { password, signedInAt: c.var.accountClaims.iat });
      return c.json({ success: true, message: "Deleted" });
    },
  ),
} satisfies NamedRoute;
