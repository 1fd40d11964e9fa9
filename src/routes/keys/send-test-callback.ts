// POST /api/keys/{id}/test-callback: one signed age_verification.test event to a URL, and the receiver's answer.
import { sendTestCallback, TestCallbackInput, TestCallbackResult } from "../../domain/merchant-callbacks";
import { LIMITS, aboutLimit } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { countUse } from "../../http/rate-limit";
import { requireBusiness, requireUser, requireVerifiedEmail } from "../../http/require-user";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { forbidden } from "./create-key";
import { notFoundDoc } from "./rotate-signing-secret";

const spec = {
  method: "post",
  path: "/:id/test-callback",
  limits: { callbackTools: LIMITS.callbackToolsPerAccount },
} as const satisfies RouteSpec;

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

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function sendTestCallbackDoc(): OperationDoc {
  return {
    tag: "API keys",
    summary: "Send a signed age_verification.test event to a URL and report the receiver's answer",
    description:
      "Signed like every callback (both signatures during a rotation's grace). Sent once, now, never retried; nothing is written to the usage or callback log. " +
      `The url follows the callback_url rules. Limited to ${aboutLimit(spec.limits.callbackTools).perMinute} test events and redeliveries per account per minute.`,
    responses: {
      200: { description: "The receiver's answer (a failure to reach it is an answer too)", data: TestCallbackResult },
      ...forbidden,
      404: notFoundDoc,
    },
  };
}
