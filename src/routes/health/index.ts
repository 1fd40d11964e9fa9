// Health (tag Health), mounted at /api: liveness with a D1 round trip.
import { mountOperations } from "../named-route";
import { checkHealthRoute } from "./check-health";

export const healthRoutes = mountOperations(checkHealthRoute);
