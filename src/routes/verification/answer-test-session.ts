// POST /api/age-verification/session/{id}/test-outcome: test mode answers a test session with a chosen
// outcome, with a test key or the session's nonce.
import { createMiddleware } from "hono/factory";
import { answerTestSession, TestOutcomeInput } from "../../domain/verification";
import { unauthorized } from "../../errors";
import type { AppEnv } from "../../http/app-env";
import { authenticateOnKeyShard } from "../../http/require-api-key";
import { LIMITS } from "../../http/limits";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { limitPerAddressWithout } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PolledSession } from "../../session/session-view";
import { withdrawnLink } from "./session-responses";

/** The key, when one is sent, is checked before the body: a bad key is 401 whatever the body holds. */
const optionalApiKey = createMiddleware<AppEnv>(async (c, next) => {
  const presented = c.req.header("x-api-key");
  if (presented !== undefined) {
    const key = await authenticateOnKeyShard(c, presented);
    if (!key) throw unauthorized();
    c.set("apiKey", key);
  }
  await next();
});

const spec = {
  method: "post",
  path: "/session/:id/test-outcome",
  limits: { opens: LIMITS.sessionOpensPerAccount, perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const answerTestSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, answerTestSessionDoc())),
    // The page's way in (the nonce, no key) counts per client address, before any Durable Object is reached.
    limitPerAddressWithout("x-api-key", spec.limits.perAddress),
    optionalApiKey,
    jsonBody(TestOutcomeInput),
    async function answerWithOutcome(c) {
      const key = c.req.header("x-api-key") === undefined ? null : c.var.apiKey;
      // A test key's answer counts on its account's opens (it sends a callback as an open does).
      return ok(c, await answerTestSession(c.var.ctx, key, c.req.param("id"), c.req.valid("json"), spec.limits.opens.accountWindows));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function answerTestSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Test mode: answer a test session with a chosen outcome, without a browser or an identity check",
    description:
      "With a test key (X-API-Key svc_sk_test_…) for your own test sessions, or with the session's nonce in the body (the /verify page's test chooser, no account). " +
      "A live session, a live key, another account's session or a wrong nonce: 404. The callback and poll then carry the outcome with livemode false, holder_binding null and a receipt for APPROVED and DENIED.",
    security: "apiKey",
    responses: {
      200: { description: "Resolved", data: PolledSession },
      401: { description: "An X-API-Key that is not a valid key", codes: ["UNAUTHORIZED"] },
      409: { description: "Already answered or expired", codes: ["SESSION_NOT_PENDING"] },
      404: { description: "No test session with this id for this key or nonce", codes: ["NOT_FOUND"] },
      ...withdrawnLink,
    },
  };
}
