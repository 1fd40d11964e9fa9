// Inbound provider webhooks (CONTRACT §7, tag Webhooks), mounted at /api/webhooks.
import { mountOperations } from "../named-route";
import { receiveProviderEventRoute } from "./receive-provider-event";

export const webhookRoutes = mountOperations(receiveProviderEventRoute);
