// Onfido webhooks: X-SHA2-Signature is the hex HMAC-SHA256 of the raw body under the webhook token.
// It is checked over the exact bytes received, before anything parses them.
import * as z from "../lib/lazy-zod";
import { ApiError, fieldErrors, validationFailed } from "../errors";
import { hmacSha256, timingSafeEqual } from "../lib/crypto";
import { toHex, utf8 } from "../lib/encoding";
import { isJsonMediaType, parseJsonBytes } from "../lib/json-body";

export const SIGNATURE_HEADER = "X-SHA2-Signature";

export const invalidSignature = () => new ApiError("INVALID_SIGNATURE");

export async function onfidoSignature(rawBody: string | Uint8Array<ArrayBuffer>, webhookToken: string): Promise<string> {
  return toHex(await hmacSha256(utf8(webhookToken), rawBody));
}

/** Throws 401 INVALID_SIGNATURE unless `header` is the body's signature; the comparison takes constant time. */
export async function verifyOnfidoSignature(rawBody: Uint8Array<ArrayBuffer>, header: string | undefined, webhookToken: string) {
  const expected = await onfidoSignature(rawBody, webhookToken);
  // Hex is case-insensitive; the expected value's length (64) is public, so only equal-length input is compared.
  if (!header || !timingSafeEqual(expected, header.trim().toLowerCase())) throw invalidSignature();
}

/** Ids we put into a provider URL path: Onfido ids are UUIDs; the sandbox's use the same alphabet. */
const ProviderId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,200}$/, "Expected a provider id."));

export const OnfidoWebhookEvent = z.object({
  payload: z.object({
    resource_type: z.string().check(z.maxLength(100)),
    action: z.string().check(z.maxLength(100)),
    object: z.looseObject({
      id: ProviderId,
      status: z.optional(z.string().check(z.maxLength(100))),
      completed_at_iso8601: z.optional(z.string().check(z.maxLength(100))),
      href: z.optional(z.string().check(z.maxLength(2048))),
    }),
  }),
});
export type OnfidoWebhookEvent = z.infer<typeof OnfidoWebhookEvent>;

/** One webhook delivery as it arrived: the exact bytes and the two headers that describe them. */
export type WebhookDelivery = { body: Uint8Array<ArrayBuffer>; signature: string | undefined; contentType: string | undefined };

/**
 * The event of a delivery. The signature is checked over the exact bytes received before anything reads
 * them (401 INVALID_SIGNATURE); then the body must be JSON by the API's one rule (415, 400) and of the
 * event's shape (422).
 */
export async function readOnfidoWebhook(delivery: WebhookDelivery, webhookToken: string): Promise<OnfidoWebhookEvent> {
  await verifyOnfidoSignature(delivery.body, delivery.signature, webhookToken);
  if (!isJsonMediaType(delivery.contentType)) throw new ApiError("UNSUPPORTED_MEDIA_TYPE");
  const json = parseJsonBytes(delivery.body);
  if (!json) throw new ApiError("MALFORMED_JSON");
  const parsed = OnfidoWebhookEvent.safeParse(json.value);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
  return parsed.data;
}

/** The id of the check an event reports as completed; null for every other kind of event. */
export const completedCheckId = ({ payload }: OnfidoWebhookEvent): string | null =>
  payload.resource_type === "check" && payload.action === "check.completed" ? payload.object.id : null;
