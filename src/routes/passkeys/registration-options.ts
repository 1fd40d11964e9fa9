// POST /api/users/me/passkeys/registration-options: the challenge and options for navigator.credentials.create().
import { registrationOptions } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import * as z from "../../lib/lazy-zod";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { firstPasskeyPassword } from "./first-passkey-password";

/** The creation options the browser passes to navigator.credentials.create(), built inside the prose so none of it is in the Worker. */
const creationOptions = () =>
  z.object({
    challenge: z.string(),
    rp: z.object({ id: z.string(), name: z.string() }),
    user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
    pubKeyCredParams: z.array(z.object({ type: z.literal("public-key"), alg: z.int() })),
    timeout: z.int(),
    attestation: z.literal("none"),
    authenticatorSelection: z.object({
      residentKey: z.literal("required"),
      requireResidentKey: z.boolean(),
      userVerification: z.literal("required"),
    }),
    excludeCredentials: z.array(z.object({ type: z.literal("public-key"), id: z.string() })),
  });

const RegistrationOptionsInput = z.object({
  password: firstPasskeyPassword(),
});
const spec = {
  method: "post",
  path: "/registration-options",
  limits: { options: LIMITS.passkeyOptionsPerAccount, passwordChecks: LIMITS.passwordChangesPerAccount },
} as const satisfies RouteSpec;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function registrationOptionsDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "Options for navigator.credentials.create(): a single-use challenge valid 5 minutes",
    description:
      "A resident key with user verification required, attestation none, ES256. Pass them to PublicKeyCredential.parseCreationOptionsFromJSON(). " +
      "For the account's first passkey the body carries the account's current password ({password}), and the enrolment body too: a stolen token alone cannot add a passkey. Later passkeys are confirmed by an existing one instead.",
    responses: {
      200: { description: "Creation options (PublicKeyCredentialCreationOptionsJSON)", data: creationOptions() },
      401: {
        description: "The account's first passkey without its current password, or with a wrong one",
        codes: ["INVALID_CREDENTIALS", "UNAUTHORIZED"],
      },
      409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
    },
  };
}
