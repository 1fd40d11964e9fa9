// GET /api/users/me/passkeys: the account's passkeys, oldest first.
import { listPasskeys } from "../../domain/passkeys";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { listPasskeysDoc } from "./docs";

const spec = { method: "get", path: "/", limits: {} } as const satisfies RouteSpec;

export const listPasskeysRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listPasskeysDoc())),
    requireUser,
    async function listAccountPasskeys(c) {
      return ok(c, { passkeys: await listPasskeys(c.var.ctx, c.var.user.id) });
    },
  ),
} satisfies NamedRoute;
