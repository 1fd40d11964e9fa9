// POST /api/users/me/passkeys: enrols the credential navigator.credentials.create() returned.
import * as z from "../../lib/lazy-zod";
import { enrolPasskey, PasskeyName, RegistrationCredential, PasskeyView } from "../../domain/passkeys";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { confirmation } from "./passkey-confirmation";
import { firstPasskeyPassword } from "./first-passkey-password";

/** The 403 of a change that an existing passkey must confirm, shared with remove-passkey.ts's prose. */
export const needsConfirmation = {
  403: { description: "The account has a passkey and the change was not confirmed with one", codes: ["PASSKEY_REQUIRED"] },
} satisfies Responses;

const EnrolInput = z.object({
  name: z.optional(PasskeyName),
  credential: RegistrationCredential,
  confirmation,
  password: firstPasskeyPassword(),
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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function enrolPasskeyDoc(): OperationDoc {
  return {
    tag: "Passkeys",
    summary: "Enrol a passkey: the credential navigator.credentials.create() returned (PublicKeyCredential.toJSON())",
    description:
      "Verified against its challenge (single use), APP_URL's origin and RP id, user presence and verification. The service keeps the credential id and public key, nothing about the device.",
    responses: {
      201: { description: "Enrolled", data: z.object({ passkey: PasskeyView }) },
      400: {
        description: "The registration (or the confirmation) did not verify; the message says which check failed",
        codes: ["PASSKEY_INVALID"],
      },
      401: {
        description: "The account's first passkey without its current password, or with a wrong one",
        codes: ["INVALID_CREDENTIALS", "UNAUTHORIZED"],
      },
      ...needsConfirmation,
      409: { description: "The account holds 10 passkeys", codes: ["PASSKEY_LIMIT_REACHED"] },
    },
  };
}
