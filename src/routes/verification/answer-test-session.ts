// POST /api/age-verification/session/{id}/test-outcome: test mode answers a test session with a chosen
// outcome, with a test key or the session's nonce.
import { createMiddleware } from "hono/factory";
import { answerTestSession, TestOutcomeInput } from "../../domain/verification";
import { unauthorized } from "../../errors";
import type { AppEnv } from "../../http/app-env";
import { authenticateOnKeyShard } from "../../http/require-api-key";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { limitPerAddressWithout } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { answerTestSessionDoc } from "./docs";

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
