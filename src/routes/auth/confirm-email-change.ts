// POST /api/auth/confirm-email-change: the new address takes effect with the token mailed to it.
import { confirmEmailChange, TokenInput, User } from "../../domain/accounts";
import { describe, type OperationDoc, type Responses } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

/** The 400 of a mailed token that is unknown, used or expired, shared with verify-email.ts's and reset-password.ts's prose. */
export const badToken = {
  400: { description: "The token is unknown, already used or expired.", codes: ["INVALID_TOKEN"] },
} satisfies Responses;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function confirmEmailChangeDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Confirm a new email address with the token mailed to it; signs out everywhere",
    responses: {
      200: { description: "Email changed", data: z.object({ user: User }) },
      ...badToken,
      409: { description: "Email taken", codes: ["EMAIL_TAKEN"] },
    },
  };
}
