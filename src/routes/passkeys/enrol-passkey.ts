// POST /api/users/me/passkeys: enrols the credential navigator.credentials.create() returned.
import * as z from "../../lib/lazy-zod";
import { enrolPasskey, PasskeyName, RegistrationCredential } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { enrolPasskeyDoc } from "./docs";
import { confirmation } from "./passkey-confirmation";

const EnrolInput = z.object({
  name: PasskeyName.optional(),
  credential: RegistrationCredential,
  confirmation,
  password: z.string().min(1).max(128).optional().describe(OPENAPI_METADATA ? "The account's current password: required for the account's first passkey (401 INVALID_CREDENTIALS when missing or wrong)." : ""),
});
const spec = { method: "post", path: "/", limits: { passwordChecks: LIMITS.passwordChangesPerAccount } } as const satisfies RouteSpec;

export const enrolPasskeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, enrolPasskeyDoc())),
    requireUser,
    jsonBody(EnrolInput),
    async function enrol(c) {
      const input = c.req.valid("json");
      // A password sent is a password guessed: counted on the account's password counter.
      if (input.password !== undefined) await countUse(c, spec.limits.passwordChecks, c.var.user.id);
      return ok(c, { passkey: await enrolPasskey(c.var.ctx, c.var.user, input) }, 201);
    },
  ),
} satisfies NamedRoute;
