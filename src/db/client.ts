// drizzle over a D1 database, without the relational query builder (`db.query.…`): given the schema, drizzle
// builds every table when it makes the database, and the tables are built on first use (src/db/schema.ts).
import { drizzle } from "drizzle-orm/d1";

export const database = (d1: D1Database) => drizzle(d1);
export type Database = ReturnType<typeof database>;
