// POST /api/auth/verify-email: confirms the account's address with the mailed token.
import { TokenInput, verifyEmail, User } from "../../domain/accounts";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";
import { badToken } from "./confirm-email-change";

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function verifyEmailDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Confirm the email address with the mailed token",
    responses: { 200: { description: "Verified", data: z.object({ user: User }) }, ...badToken },
  };
}
