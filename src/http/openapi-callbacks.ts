// The OpenAPI 3.1 `webhooks` section: one entry per callback event type, its body generated from the
// same zod schemas the consumer's signed bodies follow (src/session/callback-events.ts).
import { CALLBACK_EVENTS } from "../session/callback-events";
import { RETRY_SCHEDULE_SECONDS } from "../callbacks/retry-policy";
import * as z from "../lib/lazy-zod";
import { jsonSchema } from "./openapi-json-schema";

const SIGNATURE_HEADERS = [
  { name: "webhook-id", description: "msg_…: the same on every attempt and redelivery of one event; de-duplicate on it." },
  { name: "webhook-timestamp", description: "Unix seconds of this attempt." },
  {
    name: "webhook-signature",
    description:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the signed string's shape, as Standard Webhooks writes it, not a template
      "Space-separated `v1,<base64 HMAC-SHA256>` signatures of `${webhook-id}.${webhook-timestamp}.${body}`, one per live signing secret, newest first (two during a rotation's grace).",
  },
].map(({ name, description }) => ({ name, in: "header", required: true, description, schema: { type: "string" } }));

export function webhooksSection() {
  const retries = RETRY_SCHEDULE_SECONDS.length;
  return Object.fromEntries(
    Object.entries(CALLBACK_EVENTS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `callback_${type.replace(/\W+/g, "_")}`,
          summary: type,
          description: `${z.globalRegistry.get(z.built(schema))?.description ?? ""} Standard Webhooks v1; a 2xx within 15 s is success. Session events are retried up to ${retries} attempts over about three days (410 stops retrying); see docs/callbacks.md.`,
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { "application/json": { schema: jsonSchema(schema, "output") } } },
          responses: { "2XX": { description: "Received: no further attempt." }, "410": { description: "Gone: retries stop." } },
        },
      },
    ]),
  );
}
