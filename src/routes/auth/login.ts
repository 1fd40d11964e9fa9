// POST /api/auth/login: an account JWT for the right email and password, limited per address and per (email, address).
import { login, LoginInput, User } from "../../domain/accounts";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { clientAddress, countUse } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = {
  method: "post",
  path: "/login",
  limits: { perAddress: LIMITS.loginPerAddress, perEmailAndAddress: LIMITS.loginPerEmailAndAddress },
} as const satisfies RouteSpec;

export const loginRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, loginDoc())), jsonBody(LoginInput), async function signIn(c) {
    const input = c.req.valid("json");
    const address = clientAddress(c);
    // Per address: one client trying many emails (credential stuffing). Per (email, address): guessing
    // one account's password, without letting someone else's attempts lock its owner out.
    await countUse(c, spec.limits.perAddress, address);
    await countUse(c, spec.limits.perEmailAndAddress, `${input.email}:${address}`);
    return ok(c, await login(c.var.ctx, input));
  }),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function loginDoc(): OperationDoc {
  return {
    tag: "Auth",
    summary: "Sign in and receive an account JWT (12 hours)",
    responses: {
      200: { description: "Signed in", data: z.object({ user: User, token: z.string() }) },
      401: { description: "Unknown email or wrong password (one answer for both)", codes: ["INVALID_CREDENTIALS"] },
    },
  };
}
