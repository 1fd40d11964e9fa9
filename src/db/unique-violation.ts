// D1 reports a unique-index violation only in the error text; this is the one place that reads it.
export const isUniqueViolation = (error: unknown): boolean =>
  error instanceof Error && /UNIQUE constraint failed/i.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? "")}`);
