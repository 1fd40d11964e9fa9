// Health (tag Health), mounted at /api: liveness with a D1 round trip.
import { areaOf } from "../named-route";
import { checkHealthRoute } from "./check-health";

export const healthRoutes = areaOf(checkHealthRoute);
