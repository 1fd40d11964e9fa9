// PATCH /api/users/me/passkeys/{id}: a new name for one of the account's passkeys.
import * as z from "../../lib/lazy-zod";
import { PasskeyName, renamePasskey, PasskeyView } from "../../domain/passkeys";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { unknownPasskey } from "./remove-passkey";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function renamePasskeyDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "Rename a passkey",
    responses: { 200: { description: "Renamed", data: z.object({ passkey: PasskeyView }) }, ...unknownPasskey },
  };
}
