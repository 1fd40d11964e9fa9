// JSON from a wallet's answer (JOSE headers, JWT payloads, the OpenID4VP response) is untrusted: `null`,
// an array or a number parses as well as an object, so every reader checks the shape before it looks in;
// and a name it carries is looked up among a table's own entries only.
export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A table's entry for a name taken from an answer (an `alg`, `enc`, doctype or digest algorithm), or
 * undefined: only the table's own entries count, so "constructor" or "__proto__" finds nothing.
 */
export const ownEntry = <T>(table: Readonly<Record<string, T>>, name: string): T | undefined =>
  Object.hasOwn(table, name) ? table[name] : undefined;
