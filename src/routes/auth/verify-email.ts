// POST /api/auth/verify-email: confirms the account's address with the mailed token.
import { TokenInput, verifyEmail } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { verifyEmailDoc } from "./docs";

const spec = { method: "post", path: "/verify-email", limits: {} } as const satisfies RouteSpec;

export const verifyEmailRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, verifyEmailDoc())),
    jsonBody(TokenInput),
    async function confirmAddress(c) {
      return ok(c, { user: await verifyEmail(c.var.ctx, c.req.valid("json").token) });
    },
  ),
} satisfies NamedRoute;
