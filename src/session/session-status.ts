// A verification session's status (docs/api-contract.md §Sessions). The list itself is the session log's column
// vocabulary in src/db/schema.ts; everything else (the state machine, the views, the usage filters
// and counts, the console page) takes it from here.
import { SESSION_STATUSES } from "../db/schema";

export { SESSION_STATUSES };
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** A status a session never leaves; each one sends a callback. */
export type ResolvedStatus = Exclude<SessionStatus, "PENDING">;
