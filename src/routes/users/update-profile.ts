// PATCH /api/users/me: names, or the company name of a business account.
import { ProfileInput, updateProfile, User } from "../../domain/accounts";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = { method: "patch", path: "/me", limits: {} } as const satisfies RouteSpec;

export const updateProfileRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, updateProfileDoc())),
    requireUser,
    jsonBody(ProfileInput),
    async function updateNames(c) {
      return ok(c, { user: await updateProfile(c.var.ctx, c.var.user, c.req.valid("json")) });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function updateProfileDoc(): OperationDoc {
  return {
    tag: "Users",
    summary: "Update names, or the company name of a business account",
    responses: { 200: { description: "Updated", data: z.object({ user: User }) } },
  };
}
