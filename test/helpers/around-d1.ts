// A D1 binding whose every round trip passes through the test: each statement's execution (first, all, run,
// raw; a bound statement keeps the wrapper) and each batch. The counting env, the held database and the
// rotation race build on it.

/** Runs a round trip (`call`), when and around what the test chooses; `sql` is the statement's text, undefined for a batch. */
export type AroundCall = <T>(call: () => Promise<T>, sql: string | undefined) => Promise<T>;

const EXECUTIONS = new Set<PropertyKey>(["first", "all", "run", "raw"]);

/** `d1`, with every round trip made through `around`. */
export function aroundD1(d1: D1Database, around: AroundCall): D1Database {
  const wrapStatement = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args), sql);
        if (EXECUTIONS.has(prop)) return (...args: unknown[]) => around(() => value.apply(target, args), sql);
        return value.bind(target);
      },
    });
  return new Proxy(d1, {
    get(target, prop) {
      // Statements reach batch() wrapped; the real binding takes them as they are.
      if (prop === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
      if (prop === "batch") return (statements: D1PreparedStatement[]) => around(() => target.batch(statements), undefined);
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
