// POST /api/users/me/passkeys/confirmation-options: a challenge for one of the account's passkeys to
// confirm adding or removing a passkey.
import { confirmationOptions } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { confirmationOptionsDoc } from "./docs";

const spec = { method: "post", path: "/confirmation-options", limits: { options: LIMITS.passkeyOptionsPerAccount } } as const satisfies RouteSpec;

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
