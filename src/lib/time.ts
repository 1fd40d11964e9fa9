// Times are ISO 8601 UTC with milliseconds everywhere (docs/api-contract.md §Conventions).
export const toIso = (ms: number): string => new Date(ms).toISOString();
export const nowIso = (): string => new Date().toISOString();
export const addSeconds = (iso: string, seconds: number): string => toIso(Date.parse(iso) + seconds * 1000);

export const DAY_MS = 24 * 60 * 60 * 1000;
/** The midnight (UTC) that starts the day of `ms`, in milliseconds. */
export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
/** The midnight (UTC) that ends the day of `ms`, or the next one when `ms` is a midnight. */
export const endOfUtcDay = (ms: number): string => toIso(startOfUtcDay(ms) + DAY_MS);

/** A wait for people to read: 0 is "immediately", then "5 s", "5 min", "2 h" (whole units only). */
export function formatWait(seconds: number): string {
  if (seconds === 0) return "immediately";
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
