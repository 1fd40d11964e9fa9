// GET /api/users/me: the signed-in account.
import { toUser, User } from "../../domain/accounts";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = { method: "get", path: "/me", limits: {} } as const satisfies RouteSpec;

export const readAccountRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, readAccountDoc())), requireUser, function readAccount(c) {
    return ok(c, { user: toUser(c.var.user) });
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function readAccountDoc(): OperationDoc {
  return {
    tag: "Users",
    summary: "The signed-in account",
    responses: { 200: { description: "The account", data: z.object({ user: User }) } },
  };
}
