// POST /api/keys/{id}/rotate-signing-secret: a new signing secret; the old one still signs during the grace period.
import { RotateInput, rotateSigningSecret, DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS } from "../../domain/merchant-callbacks";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { createdKey, forbidden } from "./create-key";

/** The 404 of a key id that is unknown or another account's, shared with send-test-callback.ts's and update-allowed-origins.ts's prose. */
export const notFoundDoc = { description: "No such key on this account", codes: ["NOT_FOUND"] } as const;

const spec = { method: "post", path: "/:id/rotate-signing-secret", limits: {} } as const satisfies RouteSpec;

export const rotateSigningSecretRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, rotateSigningSecretDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(RotateInput),
    async function rotateSecret(c) {
      return ok(c, await rotateSigningSecret(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").graceHours));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function rotateSigningSecretDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "Rotate the key's signing secret: the new one is shown this once",
    description:
      `For the grace period (graceHours, default ${DEFAULT_GRACE_HOURS}, at most ${MAX_GRACE_HOURS}) every callback carries two signatures, ` +
      "`v1,<new> v1,<old>`, so the receiver can switch to the new secret at any moment inside it; then only the new one signs. " +
      "A second rotation inside the window ends the oldest secret. Both secrets are stored encrypted; the listing shows when the old one stops.",
    responses: {
      200: { description: "Rotated", data: z.omit(createdKey(), { apiKey: true }) },
      ...forbidden,
      404: notFoundDoc,
      409: { description: "Rotated by a concurrent request", codes: ["ROTATION_CONFLICT"] },
    },
  };
}
