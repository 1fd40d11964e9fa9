// Inbound provider webhooks (docs/api-contract.md §KYC, tag Webhooks), mounted at /api/webhooks.
import { areaOf } from "../named-route";
import { receiveProviderEventRoute } from "./receive-provider-event";

export const webhookRoutes = areaOf(receiveProviderEventRoute);
