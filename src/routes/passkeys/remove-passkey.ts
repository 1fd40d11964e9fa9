// DELETE /api/users/me/passkeys/{id}: removes a passkey, confirmed with one of the account's passkeys.
import * as z from "../../lib/lazy-zod";
import { removePasskey } from "../../domain/passkeys";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { removePasskeyDoc } from "./docs";
import { confirmation } from "./passkey-confirmation";

const RemoveInput = z.object({ confirmation });
const spec = { method: "delete", path: "/:id", limits: {} } as const satisfies RouteSpec;

export const removePasskeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, removePasskeyDoc())),
    requireUser,
    jsonBody(RemoveInput),
    async function remove(c) {
      await removePasskey(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").confirmation);
      return c.json({ success: true, message: "Removed" });
    },
  ),
} satisfies NamedRoute;
