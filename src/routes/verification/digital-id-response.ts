// POST /api/age-verification/session/{id}/digital-id/response: the wallet's answer as the browser's
// DigitalCredential returns it (docs/api-contract.md §Digital ID), with the nonce and no account.
import { answerWithDigitalId, DigitalIdResponseBody } from "../../domain/verification";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { digitalIdResponseDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";

const spec = { method: "post", path: "/session/:id/digital-id/response", limits: {} } as const satisfies RouteSpec;

export const digitalIdResponseRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && digitalIdResponseDoc()),
    jsonBody(DigitalIdResponseBody),
    async function answerWithWallet(c) {
      const nonce = firstScreenNonce(c.req.header("x-session-nonce"), undefined);
      return ok(c, await answerWithDigitalId(c.var.ctx, c.req.param("id"), nonce, c.req.valid("json")));
    },
  ),
} satisfies NamedRoute;
