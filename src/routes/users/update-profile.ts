// PATCH /api/users/me: names, or the company name of a business account.
import { ProfileInput, updateProfile } from "../../domain/accounts";
import { describe } from "../../http/openapi-meta";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { updateProfileDoc } from "./docs";

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
