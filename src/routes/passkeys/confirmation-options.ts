// POST /api/users/me/passkeys/confirmation-options: a challenge for one of the account's passkeys to
// confirm adding or removing a passkey.
import { confirmationOptions, PasskeyRequestOptions } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = {
  method: "post",
  path: "/confirmation-options",
  limits: { options: LIMITS.passkeyOptionsPerAccount },
} as const satisfies RouteSpec;

export const confirmationOptionsRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, confirmationOptionsDoc())),
    requireUser,
    async function changeConfirmationOptions(c) {
      await countUse(c, spec.limits.options, c.var.user.id);
      return ok(c, await confirmationOptions(c.var.ctx, c.var.user.id));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function confirmationOptionsDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "Options for navigator.credentials.get() confirming a change to the account's passkeys (adding or removing one)",
    description: "A single-use challenge valid 5 minutes, for this account's passkeys only.",
    responses: {
      200: { description: "Request options (PublicKeyCredentialRequestOptionsJSON)", data: PasskeyRequestOptions },
      404: { description: "The account has no passkey: nothing to confirm with", codes: ["NOT_FOUND"] },
    },
  };
}
