// Development-only helpers (404 in production), mounted at /api/dev: the mail outbox.
import { mountOperations } from "../named-route";
import { readOutboxRoute } from "./read-outbox";

export const devRoutes = mountOperations(readOutboxRoute);
