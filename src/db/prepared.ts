// D1's own prepared statements for the hottest queries, instead of drizzle's builder: building a query
// and mapping its rows through drizzle was a measured part of a merchant call (docs/performance.md). Each
// statement is prepared once per database (so once per isolate and shard); a call binds only its values.
const preparedByDatabase = new WeakMap<D1Database, Map<string, D1PreparedStatement>>();

/** The statement `sql` prepared on `d1`, reused by every later call with the same text. */
export function prepared(d1: D1Database, sql: string): D1PreparedStatement {
  let statements = preparedByDatabase.get(d1);
  if (!statements) preparedByDatabase.set(d1, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = d1.prepare(sql)));
  return statement;
}
