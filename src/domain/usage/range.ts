// The reporting window of every usage endpoint (docs/api-contract.md §Usage). Both ends are inclusive ISO instants with
// milliseconds, so they compare as text against created_at on the session-log indexes.
import { validationFailed } from "../../errors";
import { isCalendarDate } from "../../lib/calendar-date";
import { DAY_MS, toIso } from "../../lib/time";

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

export type Range = { from: string; to: string };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
// ISO 8601 date-time with an explicit zone: Z or ±hh:mm. A time without a zone is ambiguous, so refused.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds of a valid ISO date or date-time; a date-only `to` means the end of that UTC day. */
function parseBound(value: string, end: boolean): number | null {
  if (!DATE_ONLY.test(value) && !DATE_TIME.test(value)) return null;
  if (!isCalendarDate(value.slice(0, 10))) return null;
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00.000Z`);
    return end ? ms + DAY_MS - 1 : ms;
  }
  const [hour, minute] = [Number(value.slice(11, 13)), Number(value.slice(14, 16))];
  if (hour > 23 || minute > 59) return null;
  // Sub-millisecond digits cannot be stored; cut them so Date.parse accepts any precision.
  const ms = Date.parse(value.replace(/(\.\d{3})\d+/, "$1"));
  return Number.isNaN(ms) ? null : ms;
}

/**
 * The window a request asks for: `to` defaults to now, `from` to `to` minus 30 days. A bad date,
 * `from` after `to` and a window over 366 days are 422.
 */
export function resolveRange(query: { from?: string; to?: string }, nowMs = Date.now()): Range {
  const to = query.to === undefined ? nowMs : parseBound(query.to, true);
  const from = query.from === undefined ? (to ?? nowMs) - DEFAULT_RANGE_DAYS * DAY_MS : parseBound(query.from, false);
  const problems = [];
  if (from === null) problems.push({ path: "from", message: "Use an ISO 8601 date (2026-11-01) or date-time with a zone." });
  if (to === null) problems.push({ path: "to", message: "Use an ISO 8601 date (2026-11-30) or date-time with a zone." });
  if (from !== null && to !== null) {
    if (from > to) problems.push({ path: "from", message: "from must not be after to." });
    else if (to - from > MAX_RANGE_DAYS * DAY_MS)
      problems.push({ path: "to", message: `The range can span at most ${MAX_RANGE_DAYS} days.` });
  }
  if (problems.length > 0 || from === null || to === null) throw validationFailed(problems);
  return { from: toIso(from), to: toIso(to) };
}
