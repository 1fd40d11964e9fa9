// Times are ISO 8601 UTC with milliseconds everywhere (docs/api-contract.md §Conventions).
export const toIso = (ms: number): string => new Date(ms).toISOString();
export const nowIso = (): string => new Date().toISOString();
export const addSeconds = (iso: string, seconds: number): string => toIso(Date.parse(iso) + seconds * 1000);

/** A wait for people to read: 0 is "immediately", then "5 s", "5 min", "2 h" (whole units only). */
export function formatWait(seconds: number): string {
  if (seconds === 0) return "immediately";
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
