// POST /api/auth/logout: signs the account out everywhere (every token issued so far stops working).
import { signOutEverywhere } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { logoutDoc } from "./docs";

const spec = { method: "post", path: "/logout", limits: {} } as const satisfies RouteSpec;

export const logoutRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, logoutDoc())),
    requireUser,
    async function signOut(c) {
      await signOutEverywhere(c.var.ctx, c.var.user.id);
      return c.body(null, 204);
    },
  ),
} satisfies NamedRoute;
