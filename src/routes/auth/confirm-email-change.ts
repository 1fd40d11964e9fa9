// POST /api/auth/confirm-email-change: the new address takes effect with the token mailed to it.
import { confirmEmailChange, TokenInput } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { confirmEmailChangeDoc } from "./docs";

const spec = { method: "post", path: "/confirm-email-change", limits: {} } as const satisfies RouteSpec;

export const confirmEmailChangeRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, confirmEmailChangeDoc())),
    jsonBody(TokenInput),
    async function confirmNewAddress(c) {
      return ok(c, { user: await confirmEmailChange(c.var.ctx, c.req.valid("json").token) });
    },
  ),
} satisfies NamedRoute;
