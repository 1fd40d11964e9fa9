// POST /api/webhooks/provider: inbound Onfido events. The provider adapter verifies and parses the
// delivery; the app's JSON body guard is skipped for this path because the signature must be checked
// over the raw bytes first.
import { secret } from "../../config/settings";
import { applyProviderCheck } from "../../domain/kyc";
import { describe } from "../../http/openapi-meta";
import { ok } from "../../http/respond";
import { log } from "../../lib/log";
import { completedCheckId, readOnfidoWebhook, SIGNATURE_HEADER } from "../../providers/onfido-webhook-events";
import { documented, handlersFor, type NamedRoute, type RouteSpec } from "../named-route";
import { receiveProviderEventDoc } from "./docs";

const spec = { method: "post", path: "/provider", limits: {} } as const satisfies RouteSpec;

export const receiveProviderEventRoute = {
  ...spec,
  handlers: handlersFor(spec)(describe(OPENAPI_METADATA && documented(spec, receiveProviderEventDoc())), async function receiveProviderEvent(c) {
    const event = await readOnfidoWebhook(
      { body: new Uint8Array(await c.req.arrayBuffer()), signature: c.req.header(SIGNATURE_HEADER), contentType: c.req.header("content-type") },
      secret(c.var.ctx.settings, "ONFIDO_WEBHOOK_TOKEN"),
    );
    const checkId = completedCheckId(event);
    if (checkId) await applyProviderCheck(c.var.ctx, checkId);
    else log("info", "provider webhook ignored", { resourceType: event.payload.resource_type.slice(0, 40), action: event.payload.action.slice(0, 40) });
    return ok(c, { received: true as const });
  }),
} satisfies NamedRoute;
