// POST /api/age-verification/session: a merchant opens a verification session (X-API-Key), once per
// Idempotency-Key when one is sent.
import * as z from "../../lib/lazy-zod";
import {
  idempotently,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  OpenedSession,
  openSession,
  OpenSessionInput,
  parseIdempotencyKey,
  requestFingerprint,
} from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireApiKey } from "../../http/require-api-key";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";

const spec = { method: "post", path: "/session", limits: { opens: LIMITS.sessionOpensPerAccount } } as const satisfies RouteSpec;

export const openSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, openSessionDoc())),
    requireApiKey,
    jsonBody(OpenSessionInput),
    async function openVerificationSession(c) {
      const input = c.req.valid("json");
      const key = parseIdempotencyKey(c.req.header("idempotency-key"));
      // The opens limit is counted with the session's log row, in the session object's one D1 batch.
      const open = async () => ({ status: 201, body: await openSession(c.var.ctx, c.var.apiKey, input, spec.limits.opens.accountWindows) });
      if (key === undefined) return ok(c, (await open()).body, 201);
      // Costs two D1 round trips (claim, then store the answer), only when the header is sent.
      const answer = await idempotently(c.var.ctx, c.var.apiKey, key, await requestFingerprint(input), open);
      if (answer.replayed) c.header("Idempotent-Replayed", "true");
      return ok(c, answer.body, answer.status as 201);
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function openSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Open a verification session (spec endpoint 4); server-side only",
    description:
      "Hand only session_id and nonce (or verification_url) to the browser. callback_url and return_url: absolute https, at most 2048 characters, no credentials, not a private, loopback or link-local IP literal (development also allows http://localhost and http://127.0.0.1). " +
      "A test key (svc_sk_test_…) opens a test session (livemode false). Every resolved session carries a receipt: a JWS verifiable with the keys at /.well-known/jwks.json (docs/receipts.md). " +
      "With Idempotency-Key, a retry with the same body within 24 hours answers the first response again (header Idempotent-Replayed: true) and opens nothing.",
    headers: z.object({
      "Idempotency-Key": z
        .optional(z.string().check(z.maxLength(MAX_IDEMPOTENCY_KEY_LENGTH)))
        .check(
          z.describe(
            `Up to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters, unique per request (a UUID): scoped to the API key that sends it (a test key's answer never comes back to a live key), kept 24 hours, the stored answer sealed. Same key and other body: 422 IDEMPOTENCY_KEY_REUSED; first request still running: 409 IDEMPOTENCY_IN_PROGRESS.`,
          ),
        ),
    }),
    responses: {
      201: { description: "Opened", data: OpenedSession },
      409: { description: "The first request with this Idempotency-Key is still in flight", codes: ["IDEMPOTENCY_IN_PROGRESS"] },
      422: {
        description: "Invalid body, or an Idempotency-Key reused with another body",
        codes: ["VALIDATION_FAILED", "IDEMPOTENCY_KEY_REUSED"],
      },
    },
  };
}
