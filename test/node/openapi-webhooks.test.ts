// The OpenAPI document's `webhooks` section describes the callback bodies: a body built and signed by
// the same functions the queue consumer uses verifies with the reference standardwebhooks library and
// validates against the section's schema for its type; a body the consumer would never send does not.
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { callbackBody } from "../../src/callbacks/deliver";
import { TEST_EVENT_TYPE } from "../../src/session/callback-events";
import { webhookHeaders } from "../../src/callbacks/sign";
import { buildOpenApiDocument } from "../../src/http/openapi-document";
import { callbackMessage } from "../../src/session/callback-message";
import type { SessionState } from "../../src/session/state-machine";

const document = buildOpenApiDocument(createApp()) as unknown as {
  webhooks: Record<string, { post: { requestBody: { content: { "application/json": { schema: object } } } } }>;
};
const validatorFor = (type: string) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(document.webhooks[type]!.post.requestBody.content["application/json"].schema);
};

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const resolved = (status: "APPROVED" | "DENIED" | "EXPIRED"): SessionState => ({
  id: "ses_AAAAAAAAAAAAAAAAAAAAAAAA",
  accountId: "usr_AAAAAAAAAAAAAAAAAAAAAAAA",
  keyId: "key_AAAAAAAAAAAAAAAAAAAAAAAA",
  merchantName: "Acme",
  ageRequired: 18,
  callbackUrl: "https://merchant.example/hook",
  nonceHash: "00",
  status,
  createdAt: "2026-05-01T10:00:00.000Z",
  expiresAt: "2026-05-01T10:30:00.000Z",
  resolvedAt: status === "EXPIRED" ? "2026-05-01T10:30:00.000Z" : "2026-05-01T10:05:00.000Z",
  aboveAgeRequired: status === "APPROVED",
  receiptId: status === "EXPIRED" ? null : "rcpt_AAAAAAAAAAAAAAAAAAAAAAAA",
});

describe("OpenAPI webhooks section", () => {
  it("names every event type, the test event included", () => {
    expect(Object.keys(document.webhooks).sort()).toEqual(
      ["age_verification.session.approved", "age_verification.session.denied", "age_verification.session.expired", TEST_EVENT_TYPE].sort(),
    );
  });

  for (const status of ["APPROVED", "DENIED", "EXPIRED"] as const) {
    it(`a signed ${status} callback body validates against its webhook schema, and not against another's`, async () => {
      const message = callbackMessage(resolved(status), "msg_AAAAAAAAAAAAAAAAAAAAAAAA", 1);
      const body = callbackBody(message);
      const headers = await webhookHeaders([SECRET], message.webhookId, Math.floor(Date.now() / 1000), body);
      const payload = new Webhook(SECRET).verify(body, headers);
      const validate = validatorFor(message.type);
      expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
      const other = status === "APPROVED" ? "age_verification.session.denied" : "age_verification.session.approved";
      expect(validatorFor(other)(payload)).toBe(false);
      // A body missing a field of the polled session does not validate.
      const { data, ...rest } = payload as { data: Record<string, unknown> };
      const { receipt_id: _dropped, ...partial } = data;
      expect(validate({ ...rest, data: partial })).toBe(false);
    });
  }

  it("the test event's body validates against the age_verification.test schema", () => {
    const validate = validatorFor(TEST_EVENT_TYPE);
    const body = JSON.parse(
      callbackBody({
        type: TEST_EVENT_TYPE,
        timestamp: "2026-05-01T10:00:00.000Z",
        data: { key_id: "key_AAAAAAAAAAAAAAAAAAAAAAAA", message: "A test event." },
      }),
    );
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...body, type: "age_verification.session.approved" })).toBe(false);
  });
});
