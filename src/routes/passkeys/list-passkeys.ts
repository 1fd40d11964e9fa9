// GET /api/users/me/passkeys: the account's passkeys, oldest first.
import { listPasskeys, PasskeyView } from "../../domain/passkeys";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function listPasskeysDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "The account's passkeys",
    responses: { 200: { description: "The passkeys, oldest first", data: z.object({ passkeys: z.array(PasskeyView) }) } },
  };
}
