// RFC 4180 CSV: CRLF line ends, a field is quoted when it holds a comma, a quote or a line break, and
// quotes inside are doubled. Text that a spreadsheet would run as a formula (a leading = + - @, or a
// tab or carriage return that some spreadsheets skip before one) is prefixed with ' (OWASP CSV injection).
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  // Numbers and booleans are our own values, never formulas; only text is neutralised.
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (values: readonly CsvValue[]): string => `${values.map(csvCell).join(",")}\r\n`;
