// POST /api/age-verification/session/{id}/complete: the signed-in end user answers a session; consent
// shares whether they are old enough, nothing else.
import { CompleteInput, completeSession, loadAnswerer } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { requireAccountToken } from "../../http/require-user";
import { ok } from "../../http/respond";
import { sessionNonce, sessionNonceHeader } from "../../http/session-nonce";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { completeSessionDoc } from "./docs";

const spec = { method: "post", path: "/session/:id/complete", limits: { completions: LIMITS.completionsPerAccount } } as const satisfies RouteSpec;

export const completeSessionRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, completeSessionDoc())),
    requireAccountToken,
    sessionNonceHeader,
    jsonBody(CompleteInput),
    async function answerSession(c) {
      const { nonce: bodyNonce, ...answer } = c.req.valid("json");
      const nonce = sessionNonce(c.req.valid("header")["x-session-nonce"], bodyNonce, "nonce");
      // Validation first (400/422 count nothing), then one D1 batch: the account and its completion counters.
      const answerer = await loadAnswerer(c.var.ctx, c.var.accountClaims, spec.limits.completions.accountWindows);
      c.set("accountChecked", true);
      return ok(c, await completeSession(c.var.ctx, answerer, c.req.param("id"), { ...answer, nonce }));
    },
  ),
} satisfies NamedRoute;
