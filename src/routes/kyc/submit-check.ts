// POST /api/kyc/submit: the SDK's uploads go to the provider for a check; the webhook decides later.
import { submitCheck } from "../../domain/kyc";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireUser } from "../../http/require-user";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { submitCheckDoc } from "./docs";

const spec = { method: "post", path: "/submit", limits: { checks: LIMITS.kycChecksPerAccount } } as const satisfies RouteSpec;

export const submitCheckRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, submitCheckDoc())),
    requireUser,
    async function submitForCheck(c) {
      await countUse(c, spec.limits.checks, c.var.user.id);
      return ok(c, await submitCheck(c.var.ctx, c.var.user.id), 202);
    },
  ),
} satisfies NamedRoute;
