/// <reference types="vite/client" />
// The schema and the migrations agree: drizzle-kit, given src/db/schema.ts, finds nothing to migrate past
// the newest snapshot in drizzle/meta. It reads the tables through their stand-ins (src/db/schema.ts builds
// each on first use), so this also holds the stand-ins to what drizzle-kit needs of a table: its columns,
// indexes, foreign keys and name.
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";

const meta = import.meta.glob<string>("../../drizzle/meta/*.json", { query: "?raw", import: "default", eager: true });
const journal = JSON.parse(meta["../../drizzle/meta/_journal.json"]!) as { entries: { tag: string }[] };

describe("the schema and the migrations", () => {
  it("has nothing drizzle-kit would migrate past the newest snapshot", { timeout: 60_000 }, async () => {
    const newest = journal.entries.at(-1)!;
    const snapshot = JSON.parse(meta[`../../drizzle/meta/${newest.tag.slice(0, 4)}_snapshot.json`]!);
    const current = await generateSQLiteDrizzleJson(schema as unknown as Record<string, unknown>);
    expect(Object.keys(current.tables).length).toBe(24);
    expect(await generateSQLiteMigration(snapshot, current)).toEqual([]);
  });
});
