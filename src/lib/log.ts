// Structured JSON logs. Callers pass only non-personal fields: route patterns, ids, codes, durations;
// never bodies, query strings, emails, tokens or keys.
type Level = "info" | "warn" | "error";

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}
