// POST /api/webhooks/provider: inbound Onfido events. The provider adapter verifies and parses the
// delivery; the app's JSON body guard is skipped for this path because the signature must be checked
// over the raw bytes first.
import { secret } from "../../config/settings";
import { applyProviderCheck } from "../../domain/kyc";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { log } from "../../lib/log";
import { completedCheckId, readOnfidoWebhook, SIGNATURE_HEADER, OnfidoWebhookEvent } from "../../providers/onfido-webhook-events";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import * as z from "../../lib/lazy-zod";

const spec = { method: "post", path: "/provider", limits: {} } as const satisfies RouteSpec;

export const receiveProviderEventRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, receiveProviderEventDoc())),
    async function receiveProviderEvent(c) {
      const event = await readOnfidoWebhook(
        {
          body: new Uint8Array(await c.req.arrayBuffer()),
          signature: c.req.header(SIGNATURE_HEADER),
          contentType: c.req.header("content-type"),
        },
        secret(c.var.ctx.settings, "ONFIDO_WEBHOOK_TOKEN"),
      );
      const checkId = completedCheckId(event);
      if (checkId) await applyProviderCheck(c.var.ctx, checkId);
      else
        log("info", "provider webhook ignored", {
          resourceType: event.payload.resource_type.slice(0, 40),
          action: event.payload.action.slice(0, 40),
        });
      return ok(c, { received: true as const });
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function receiveProviderEventDoc(): OperationDoc {
  return {
    tag: "Webhooks",
    summary: "Onfido webhook intake",
    description:
      `Signed by Onfido with ${SIGNATURE_HEADER}: hex HMAC-SHA256 of the raw body under ONFIDO_WEBHOOK_TOKEN. ` +
      "On check.completed the service reads the check and its document report from Onfido: a clear result stores " +
      "the report's date of birth and sets VERIFIED, any other result sets REJECTED. Redelivery changes nothing; " +
      "events of other kinds and for unknown applicants are acknowledged and ignored. A 502 asks Onfido to retry.",
    security: "webhookSignature",
    body: OnfidoWebhookEvent,
    responses: {
      200: { description: "Received (applied, or acknowledged and ignored).", data: z.object({ received: z.literal(true) }) },
      401: { description: "The signature is missing or does not match the body.", codes: ["INVALID_SIGNATURE"] },
      502: { description: "Onfido could not be read; the delivery should be retried.", codes: ["PROVIDER_ERROR"] },
    },
  };
}
