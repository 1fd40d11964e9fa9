// Times are ISO 8601 UTC with milliseconds everywhere (CONTRACT §1).
export const toIso = (ms: number): string => new Date(ms).toISOString();
export const nowIso = (): string => new Date().toISOString();
export const addSeconds = (iso: string, seconds: number): string => toIso(Date.parse(iso) + seconds * 1000);
