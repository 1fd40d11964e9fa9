// POST /api/keys/{id}/rotate-signing-secret: a new signing secret; the old one still signs during the grace period.
import { RotateInput, rotateSigningSecret } from "../../domain/merchant-callbacks";
import { describe } from "../../http/openapi-meta";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { rotateSigningSecretDoc } from "./docs";

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
