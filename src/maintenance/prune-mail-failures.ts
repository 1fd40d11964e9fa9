// Undelivered-mail records (src/mail/failures.ts) once they are MAIL_FAILURE_RETENTION_DAYS old: the
// operator answers "did my mail fail?" within days, and the recipient hash is still pseudonymous data
// about a person, kept no longer than that question needs.
import { deleteInBatches } from "./batch-delete";
import { DAY_MS } from "../lib/time";
import { MAIL_FAILURE_RETENTION_DAYS } from "./periods";

export const pruneMailFailures = (db: D1Database, now: Date) =>
  deleteInBatches(db, "mail_failures", "failed_at < ?", [new Date(now.getTime() - MAIL_FAILURE_RETENTION_DAYS * DAY_MS).toISOString()]);
