// POST /api/keys/{id}/test-callback: one signed age_verification.test event to a URL, and the receiver's answer.
import { sendTestCallback, TestCallbackInput } from "../../domain/merchant-callbacks";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { sendTestCallbackDoc } from "./docs";

const spec = { method: "post", path: "/:id/test-callback", limits: { callbackTools: LIMITS.callbackToolsPerAccount } } as const satisfies RouteSpec;

export const sendTestCallbackRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, sendTestCallbackDoc())),
    requireUser,
    requireBusiness,
    requireVerifiedEmail,
    jsonBody(TestCallbackInput),
    async function sendTestEvent(c) {
      // Counted by the domain once the key is found and the URL accepted, before anything is sent.
      const admit = () => countUse(c, spec.limits.callbackTools, c.var.user.id);
      return ok(c, await sendTestCallback(c.var.ctx, c.var.user.id, c.req.param("id"), c.req.valid("json").url, admit));
    },
  ),
} satisfies NamedRoute;
