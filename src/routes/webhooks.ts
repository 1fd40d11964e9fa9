// Inbound provider webhooks (CONTRACT §7, tag Webhooks). The signature is verified over the raw bytes
// before anything parses them; the app's JSON body guard is skipped for this path for that reason.
import { Hono } from "hono";
import * as z from "zod";
import { secret } from "../config";
import { applyCompletedCheck } from "../domain/kyc";
import type { AppEnv } from "../http/app-env";
import { ApiError, validationFailed } from "../errors";
import { log } from "../lib/log";
import { describe } from "../http/openapi-meta";
import { ok } from "../http/respond";
import { fieldErrors } from "../http/validate";
import { OnfidoWebhookEvent, SIGNATURE_HEADER, verifyOnfidoSignature } from "../providers/onfido-webhook";

const Received = z.object({ received: z.literal(true) });
const JSON_TYPE = /^application\/json\s*(?:;.*)?$/i;

export const webhookRoutes = new Hono<AppEnv>().post(
  "/provider",
  describe({
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
      200: { description: "Received (applied, or acknowledged and ignored).", data: Received },
      401: { description: "The signature is missing or does not match the body.", codes: ["INVALID_SIGNATURE"] },
      502: { description: "Onfido could not be read; the delivery should be retried.", codes: ["PROVIDER_ERROR"] },
    },
  }),
  async (c) => {
    // The signature covers the exact bytes received: verify them before decoding anything.
    const raw = new Uint8Array(await c.req.arrayBuffer());
    await verifyOnfidoSignature(raw, c.req.header(SIGNATURE_HEADER), secret(c.env, "ONFIDO_WEBHOOK_TOKEN"));
    if (!JSON_TYPE.test(c.req.header("content-type") ?? "")) {
      throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
    }
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(raw));
    } catch {
      throw new ApiError("MALFORMED_JSON");
    }
    const parsed = OnfidoWebhookEvent.safeParse(json);
    if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
    const { resource_type, action, object } = parsed.data.payload;
    if (resource_type === "check" && action === "check.completed") {
      await applyCompletedCheck(c.var.ctx, object.id);
    } else {
      log("info", "provider webhook ignored", { resourceType: resource_type.slice(0, 40), action: action.slice(0, 40) });
    }
    return ok(c, { received: true as const });
  },
);
