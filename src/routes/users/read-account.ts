// GET /api/users/me: the signed-in account.
import { toUser } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { readAccountDoc } from "./docs";

const spec = { method: "get", path: "/me", limits: {} } as const satisfies RouteSpec;

export const readAccountRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, readAccountDoc())), requireUser, function readAccount(c) {
    return ok(c, { user: toUser(c.var.user) });
  }),
} satisfies NamedRoute;
