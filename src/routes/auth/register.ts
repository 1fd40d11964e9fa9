// POST /api/auth/register: a new PERSONAL or BUSINESS account, signed in at once; the verification mail follows.
import { register, RegisterInput, User } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = { method: "post", path: "/register", limits: { perAddress: LIMITS.registrationsPerAddress } } as const satisfies RouteSpec;

export const registerRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, registerDoc())),
    limitPerAddress(spec.limits.perAddress),
    jsonBody(RegisterInput),
    async function registerAccount(c) {
      return ok(c, await register(c.var.ctx, c.req.valid("json")), 201);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function registerDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Create a PERSONAL or BUSINESS account",
    description: "Sends a verification email. companyName is required for BUSINESS.",
    responses: {
      201: { description: "Created", data: z.object({ user: User, token: z.string() }) },
      409: { description: "Email taken", codes: ["EMAIL_TAKEN"] },
    },
  };
}
