// POST /api/age-verification/session: a merchant opens a verification session (X-API-Key), once per
// Idempotency-Key when one is sent.
import { idempotently, openSession, OpenSessionInput, parseIdempotencyKey, requestFingerprint } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { requireApiKey } from "../../http/require-api-key";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { openSessionDoc } from "./docs";

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
