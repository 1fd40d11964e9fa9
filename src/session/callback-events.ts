// The callback bodies as zod schemas: the OpenAPI document's `webhooks` section is generated from
// these (src/http/openapi-callbacks.ts), and their `data` is the very PolledSession schema the session
// view and the consumer's signed body use, so the document cannot drift from what is signed.
import * as z from "../lib/lazy-zod";
import { PolledSession } from "./session-view";
import type { CallbackEventType } from "./callback-message";

export const TEST_EVENT_TYPE = "age_verification.test";

const envelope = <T extends string, D extends z.ZodMiniType>(type: T, data: D, description: string) =>
  z
    .object({
      type: z.literal(type),
      timestamp: z.iso
        .datetime()
        .check(z.describe(OPENAPI_METADATA ? "When the event happened (the session's resolution; the send time of a test event)." : "")),
      data,
    })
    .check(z.describe(description));

const sessionEvent = (type: CallbackEventType, status: "APPROVED" | "DENIED" | "EXPIRED", when: string) =>
  envelope(
    type,
    z.extend(PolledSession, { status: z.literal(status) }),
    OPENAPI_METADATA ? `Sent when ${when}. \`data\` is the polled session.` : "",
  );

export const TestEventData = z.object({
  key_id: z.string().check(z.describe(OPENAPI_METADATA ? "The key whose signing secret(s) signed this test event." : "")),
  message: z.string(),
});

/** Every event type, with its body schema and when it is sent. */
export const CALLBACK_EVENTS = {
  "age_verification.session.approved": sessionEvent(
    "age_verification.session.approved",
    "APPROVED",
    OPENAPI_METADATA ? "the end user approved and is at least the required age" : "",
  ),
  "age_verification.session.denied": sessionEvent(
    "age_verification.session.denied",
    "DENIED",
    OPENAPI_METADATA ? "the end user refused, or is under the required age" : "",
  ),
  "age_verification.session.expired": sessionEvent(
    "age_verification.session.expired",
    "EXPIRED",
    OPENAPI_METADATA ? "the session expired unanswered" : "",
  ),
  [TEST_EVENT_TYPE]: envelope(
    TEST_EVENT_TYPE,
    TestEventData,
    OPENAPI_METADATA
      ? "Sent only by POST /api/keys/{id}/test-callback, to the URL given there: checks an endpoint and its secret. Never retried, never in the usage log."
      : "",
  ),
} as const;
