// Development outbox rows older than a day (GET /api/dev/outbox shows the newest; a link in an older
// one has expired or is about to). Production never writes the outbox.
import { DAY_MS } from "../lib/time";
import { deleteInBatches } from "./batch-delete";

export const pruneDevOutbox = (db: D1Database, now: Date) =>
  deleteInBatches(db, "dev_outbox", "created_at < ?", [new Date(now.getTime() - DAY_MS).toISOString()]);
