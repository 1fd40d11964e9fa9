// The OpenAPI prose of the API keys area, one function per operation. Called only behind
// `OPENAPI_METADATA &&`, so esbuild drops it from the Worker (the document is a static file).
import * as z from "../../lib/lazy-zod";
import { ApiKeyRecord, MAX_ACTIVE_KEYS } from "../../domain/keys";
import { DEFAULT_GRACE_HOURS, MAX_GRACE_HOURS, TestCallbackResult } from "../../domain/merchant-callbacks";
import { aboutLimit, LIMITS } from "../../http/limits";
import type { OperationDoc, Responses } from "../../http/openapi-meta";

const tag = "API keys";
// Built inside the functions, so that none of this module is left in the Worker.
const createdKey = () =>
  z.object({
    key: ApiKeyRecord,
    apiKey: z.string().describe("svc_sk_live_… or svc_sk_test_…: shown this once; only its hash is stored."),
    signingSecret: z.string().describe("whsec_…: shown this once; signs this key's callbacks."),
  });
const notFoundDoc = { description: "No such key on this account", codes: ["NOT_FOUND"] } as const;
const forbidden = { 403: { description: "Not a verified business account", codes: ["BUSINESS_ACCOUNT_REQUIRED", "EMAIL_NOT_VERIFIED"] } } satisfies Responses;

export function createKeyDoc(): OperationDoc {
  return {
    tag,
    summary: "Create a key: the API key and signing secret are shown this once",
    responses: { 201: { description: "Created", data: createdKey() }, ...forbidden, 409: { description: `${MAX_ACTIVE_KEYS} active keys already`, codes: ["KEY_LIMIT_REACHED"] } },
  };
}

export function listKeysDoc(): OperationDoc {
  return {
    tag,
    summary: "The account's keys, newest first, revoked ones included; never a secret",
    responses: { 200: { description: "Keys", data: z.object({ keys: z.array(ApiKeyRecord) }) }, ...forbidden },
  };
}

export function updateAllowedOriginsDoc(): OperationDoc {
  return {
    tag,
    summary: "Update a key's allowed callback origins",
    description:
      "When a key carries allowed origins, a session it opens with a callback_url on any other origin is 422 CALLBACK_ORIGIN_NOT_ALLOWED, " +
      "so a leaked key cannot point callbacks at an arbitrary host. Origins are normalised (lower-case host, default port dropped) and de-duplicated.",
    responses: { 200: { description: "Updated", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: notFoundDoc },
  };
}

export function rotateSigningSecretDoc(): OperationDoc {
  return {
    tag,
    summary: "Rotate the key's signing secret: the new one is shown this once",
    description:
      `For the grace period (graceHours, default ${DEFAULT_GRACE_HOURS}, at most ${MAX_GRACE_HOURS}) every callback carries two signatures, ` +
      "`v1,<new> v1,<old>`, so the receiver can switch to the new secret at any moment inside it; then only the new one signs. " +
      "A second rotation inside the window ends the oldest secret. Both secrets are stored encrypted; the listing shows when the old one stops.",
    responses: {
      200: { description: "Rotated", data: createdKey().omit({ apiKey: true }) },
      ...forbidden,
      404: notFoundDoc,
      409: { description: "Rotated by a concurrent request", codes: ["ROTATION_CONFLICT"] },
    },
  };
}

export function sendTestCallbackDoc(): OperationDoc {
  return {
    tag,
    summary: "Send a signed age_verification.test event to a URL and report the receiver's answer",
    description:
      "Signed like every callback (both signatures during a rotation's grace). Sent once, now, never retried; nothing is written to the usage or callback log. " +
      `The url follows the callback_url rules. Limited to ${aboutLimit(LIMITS.callbackToolsPerAccount).perMinute} test events and redeliveries per account per minute.`,
    responses: {
      200: { description: "The receiver's answer (a failure to reach it is an answer too)", data: TestCallbackResult },
      ...forbidden,
      404: notFoundDoc,
    },
  };
}

export function revokeKeyDoc(): OperationDoc {
  return {
    tag,
    summary: "Revoke a key: it stops authenticating on the very next request",
    responses: { 200: { description: "Revoked", data: z.object({ key: ApiKeyRecord }) }, ...forbidden, 404: { description: "No such key on this account", codes: ["NOT_FOUND"] } },
  };
}
