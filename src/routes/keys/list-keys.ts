// GET /api/keys: the account's keys, newest first, revoked ones included; never a secret.
import { listApiKeys } from "../../domain/keys";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { listKeysDoc } from "./docs";

const spec = { method: "get", path: "/", limits: {} } as const satisfies RouteSpec;

export const listKeysRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, listKeysDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    async function listKeys(c) {
      return ok(c, { keys: await listApiKeys(c.var.ctx, c.var.user.id) });
    },
  ),
} satisfies NamedRoute;
