// POST /api/users/me/passkeys/registration-options: the challenge and options for navigator.credentials.create().
import { registrationOptions } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import * as z from "../../lib/lazy-zod";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { registrationOptionsDoc } from "./docs";

const RegistrationOptionsInput = z.object({
  password: z.string().min(1).max(128).optional().describe(OPENAPI_METADATA ? "The account's current password: required for the account's first passkey (401 INVALID_CREDENTIALS when missing or wrong)." : ""),
});
const spec = { method: "post", path: "/registration-options", limits: { options: LIMITS.passkeyOptionsPerAccount, passwordChecks: LIMITS.passwordChangesPerAccount } } as const satisfies RouteSpec;

export const registrationOptionsRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, registrationOptionsDoc())),
    requireUser,
    jsonBody(RegistrationOptionsInput),
    async function creationOptions(c) {
      await countUse(c, spec.limits.options, c.var.user.id);
      const { password } = c.req.valid("json");
      // A password sent is a password guessed: counted on the account's password counter.
      if (password !== undefined) await countUse(c, spec.limits.passwordChecks, c.var.user.id);
      return ok(c, await registrationOptions(c.var.ctx, c.var.user, password));
    },
  ),
} satisfies NamedRoute;
