// The OpenAPI prose of the inbound provider webhook. Called only behind `OPENAPI_METADATA &&`, so esbuild
// drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import type { OperationDoc } from "../../http/openapi-meta";
import { OnfidoWebhookEvent, SIGNATURE_HEADER } from "../../providers/onfido-webhook-events";

export function receiveProviderEventDoc(): OperationDoc {
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
