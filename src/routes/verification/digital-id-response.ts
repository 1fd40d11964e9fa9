// POST /api/age-verification/session/{id}/digital-id/response: the wallet's answer as the browser's
// DigitalCredential returns it (docs/api-contract.md §Digital ID), with the nonce and no account.
import { answerWithDigitalId, DigitalIdResponseBody } from "../../domain/verification";
import { LIMITS } from "../../http/limits";
import { describe } from "../../http/openapi-meta";
import { limitPerAddress } from "../../http/rate-limit";
import { ok } from "../../http/respond";
import { jsonBody } from "../../http/validate";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { DIGITAL_ID_FAILURE_CAP, digitalIdResponseDoc } from "./docs";
import { firstScreenNonce } from "./first-screen-nonce";
import { noAccountOnDoubleBlind, nonceInHeader } from "./no-account-on-double-blind";

const spec = {
  method: "post",
  path: "/session/:id/digital-id/response",
  limits: { perAddress: LIMITS.sessionLinkPerAddress },
} as const satisfies RouteSpec;

export const digitalIdResponseRoute = {
  ...spec,
  handlers: handlersFor(spec)(
    describe(OPENAPI_METADATA && documented(spec, digitalIdResponseDoc(), DIGITAL_ID_FAILURE_CAP)),
    // Before the body is read: a flood of made-up ids costs neither a parse nor a Durable Object.
    limitPerAddress(spec.limits.perAddress),
    noAccountOnDoubleBlind(nonceInHeader),
    jsonBody(DigitalIdResponseBody),
    async function answerWithWallet(c) {
      const nonce = firstScreenNonce(c.req.header("x-session-nonce"), undefined);
      return ok(c, await answerWithDigitalId(c.var.ctx, c.req.param("id"), nonce, c.req.valid("json")));
    },
  ),
} satisfies NamedRoute;
