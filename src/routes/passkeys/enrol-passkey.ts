// POST /api/users/me/passkeys: enrols the credential navigator.credentials.create() returned.
import * as z from "zod";
import { enrolPasskey, PasskeyName, RegistrationCredential } from "../../domain/passkeys";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { enrolPasskeyDoc } from "./docs";
import { confirmation } from "./passkey-confirmation";

const EnrolInput = z.object({ name: PasskeyName.optional(), credential: RegistrationCredential, confirmation });
const spec = { method: "post", path: "/", limits: {} } as const satisfies RouteSpec;

export const enrolPasskeyRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, enrolPasskeyDoc())),
    requireUser,
    jsonBody(EnrolInput),
    async function enrol(c) {
      return ok(c, { passkey: await enrolPasskey(c.var.ctx, c.var.user.id, c.req.valid("json")) }, 201);
    },
  ),
} satisfies NamedRoute;
