// GET /api/age-verification/session/{id}: the merchant polls its session (the fallback when a callback was missed).
import { pollSession } from "../../domain/verification";
import { describe, type OperationDoc } from "../../http/openapi-meta";
import { requireApiKey } from "../../http/require-api-key";
import { ok } from "../../http/respond";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { PolledSession } from "../../session/session-view";
import { unknownSession } from "./session-responses";

const spec = { method: "get", path: "/session/:id", limits: {} } as const satisfies RouteSpec;

export const pollSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, pollSessionDoc())),
    requireApiKey,
    async function pollVerificationSession(c) {
      return ok(c, await pollSession(c.var.ctx, c.var.apiKey.userId, c.req.param("id")));
    },
  ),
} satisfies NamedRoute;

/** The OpenAPI prose, called only behind `OPENAPI_METADATA &&`: esbuild drops it from the Worker. */
function pollSessionDoc(): OperationDoc {
  return {
    tag: "Verification",
    summary: "Poll a session (spec endpoint 5): the fallback when a callback was missed",
    responses: { 200: { description: "The polled session", data: PolledSession }, ...unknownSession },
  };
}
