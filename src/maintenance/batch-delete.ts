// Deletes the rows a condition selects, a bounded batch per statement and a bounded number of
// statements per run: one run never holds D1 for long, and what is left goes in the next run.
export const DELETE_BATCH_ROWS = 500;
export const MAX_BATCHES_PER_RUN = 10;

export type Pruned = { deleted: number; more: boolean };

/**
 * `table`, `where` and `rowKey` are fixed SQL written in this folder (never input); `params` fill the `?`
 * of `where`. The batch selects rows by their rowid on the condition's index, or by `rowKey`, the primary
 * key of a table without a rowid (account_counters: drizzle/0019_keyed_tables_without_rowid.sql).
 */
export async function deleteInBatches(
  db: D1Database,
  table: string,
  where: string,
  params: unknown[],
  limits = { rows: DELETE_BATCH_ROWS, batches: MAX_BATCHES_PER_RUN },
  rowKey = "rowid",
): Promise<Pruned> {
  const statement = db.prepare(`DELETE FROM ${table} WHERE ${rowKey} IN (SELECT ${rowKey} FROM ${table} WHERE ${where} LIMIT ?)`);
  let deleted = 0;
  for (let batch = 0; batch < limits.batches; batch++) {
    const result = await statement.bind(...params, limits.rows).run();
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < limits.rows) return { deleted, more: false };
  }
  return { deleted, more: true };
}
