// PATCH /api/users/me/passkeys/{id}: a new name for one of the account's passkeys.
import * as z from "../../lib/lazy-zod";
import { PasskeyName, renamePasskey } from "../../domain/passkeys";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { renamePasskeyDoc } from "./docs";

const RenameInput = z.object({ name: PasskeyName });
const spec = { method: "patch", path: "/:id", limits: {} } as const satisfies RouteSpec;

export const renamePasskeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, renamePasskeyDoc())),
    requireUser,
    jsonBody(RenameInput),
    async function rename(c) {
      return ok(c, { passkey: await renamePasskey(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").name) });
    },
  ),
} satisfies NamedRoute;
