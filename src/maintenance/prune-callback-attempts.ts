// Callback attempts older than CALLBACK_LOG_RETENTION_DAYS. Only attempts of settled events go: a
// pending event's attempts are the count its consumer works from.
import { deleteInBatches } from "./batch-delete";
import { DAY_MS } from "../lib/time";

export const pruneCallbackAttempts = (db: D1Database, now: Date, retentionDays: number) =>
  deleteInBatches(
    db,
    "callback_attempts",
    "at < ? AND NOT EXISTS (SELECT 1 FROM callback_events e WHERE e.id = callback_attempts.event_id AND e.state = 'pending')",
    [new Date(now.getTime() - retentionDays * DAY_MS).toISOString()],
  );
