// One row of a table by a condition, for the tests' checks of what was stored.
import type { SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Database } from "../../src/db/client";

/** The first row of `table` where `condition` holds, or undefined. */
export async function rowWhere<T extends SQLiteTable>(
  db: Database,
  table: T,
  condition: SQL | undefined,
): Promise<T["$inferSelect"] | undefined> {
  const [row] = await db
    .select()
    .from(table as SQLiteTable)
    .where(condition)
    .limit(1);
  return row as T["$inferSelect"] | undefined;
}
