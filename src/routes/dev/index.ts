// Development-only helpers (404 in production), mounted at /api/dev: the mail outbox.
import { areaOf } from "../named-route";
import { readOutboxRoute } from "./read-outbox";

export const devRoutes = areaOf(readOutboxRoute);
