// POST /api/users/me/passkeys/registration-options: the challenge and options for navigator.credentials.create().
import { registrationOptions } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { registrationOptionsDoc } from "./docs";

const spec = { method: "post", path: "/registration-options", limits: { options: LIMITS.passkeyOptionsPerAccount } } as const satisfies RouteSpec;

export const registrationOptionsRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, registrationOptionsDoc())),
    requireUser,
    async function creationOptions(c) {
      await countUse(c, spec.limits.options, c.var.user.id);
      return ok(c, await registrationOptions(c.var.ctx, c.var.user));
    },
  ),
} satisfies NamedRoute;
