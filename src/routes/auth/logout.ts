// POST /api/auth/logout: signs the account out everywhere (every token issued so far stops working).
import { signOutEverywhere } from "../../domain/accounts";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "post", path: "/logout", limits: {} } as const satisfies RouteSpec;

export const logoutRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, logoutDoc())), requireUser, async function signOut(c) {
    await signOutEverywhere(c.var.ctx, c.var.user.id);
    return c.body(null, 204);
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function logoutDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Sign out everywhere: every token issued so far stops working",
    responses: { 204: { description: "Signed out" } },
  };
}
