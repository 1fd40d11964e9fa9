// DELETE /api/users/account: removes the account's personal data, revokes its keys, expires its pending sessions.
import { deleteAccount } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { deleteAccountDoc } from "./docs";

const spec = { method: "delete", path: "/account", limits: {} } as const satisfies RouteSpec;

export const deleteAccountRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, deleteAccountDoc())),
    requireUser,
    async function removeAccount(c) {
      await deleteAccount(c.var.ctx, c.var.user);
      return c.json({ success: true, message: "Deleted" });
    },
  ),
} satisfies NamedRoute;
