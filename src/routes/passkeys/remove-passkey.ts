// DELETE /api/users/me/passkeys/{id}: removes a passkey, confirmed with one of the account's passkeys.
import * as z from "../../lib/lazy-zod";
import { removePasskey } from "../../domain/passkeys";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { confirmation } from "./passkey-confirmation";
import { needsConfirmation } from "./enrol-passkey";

/** The 404 of a passkey id that is unknown or another account's, shared with rename-passkey.ts's prose. */
export const unknownPasskey = { 404: { description: "Unknown passkey, or another account's", codes: ["NOT_FOUND"] } } satisfies Responses;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function removePasskeyDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "Remove a passkey, confirmed with one of the account's passkeys; with none left, approvals fall back to the password sign-in",
    responses: {
      200: { description: "Removed" },
      400: { description: "The confirmation did not verify", codes: ["PASSKEY_INVALID"] },
      ...needsConfirmation,
      ...unknownPasskey,
    },
  };
}
