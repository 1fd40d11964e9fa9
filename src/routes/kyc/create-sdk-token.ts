// GET /api/kyc/sdk-token: a short-lived token for the provider's capture SDK.
import { createSdkToken } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { createSdkTokenDoc } from "./docs";

const spec = { method: "get", path: "/sdk-token", limits: { tokens: LIMITS.sdkTokensPerAccount } } as const satisfies RouteSpec;

export const createSdkTokenRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, createSdkTokenDoc())),
    requireUser,
    async function sdkToken(c) {
      await countUse(c, spec.limits.tokens, c.var.user.id);
      return ok(c, await createSdkToken(c.var.ctx, c.var.user.id));
    },
  ),
} satisfies NamedRoute;
