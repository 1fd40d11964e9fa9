// Calendar dates (YYYY-MM-DD, no time zone), as dates of birth are given and verified.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * True for a date that exists in the calendar: "2001-02-29" is false, "2000-02-29" is true. Years before
 * 0100 are refused too (Date.UTC reads them as 19xx): no date of birth or report window lies there.
 */
export function isCalendarDate(value: string): boolean {
  const match = SHAPE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's date in UTC, YYYY-MM-DD. Calendar dates compare correctly as strings. */
export const todayUtc = (nowMs = Date.now()): string => new Date(nowMs).toISOString().slice(0, 10);

/** The same calendar day `years` years before `date` (29 February falls back to 28 February). */
export function yearsBefore(date: string, years: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const shifted = new Date(Date.UTC(y - years, m - 1, d));
  if (shifted.getUTCDate() !== d) shifted.setUTCDate(0);
  return shifted.toISOString().slice(0, 10);
}
