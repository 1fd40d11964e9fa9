// builtOnFirstUse (src/lib/built-on-first-use.ts): nothing is built until the object is used, it is built
// once, and the stand-in answers as the object would, including to drizzle, whose tables are built this way
// (src/db/schema.ts).
import { env } from "cloudflare:test";
import { eq, getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { database } from "../../src/db/client";
import { users } from "../../src/db/schema";
import { builtOnFirstUse } from "../../src/lib/built-on-first-use";

class Counter {
  count = 0;
  get doubled() {
    return this.count * 2;
  }
  bump() {
    return ++this.count;
  }
}

describe("builtOnFirstUse", () => {
  it("builds nothing until the first use, then once, whatever the use", () => {
    for (const use of [
      (o: Counter) => o.count,
      (o: Counter) => "count" in o,
      (o: Counter) => o instanceof Counter,
      (o: Counter) => Object.keys(o),
      (o: Counter) => ({ ...o }),
      (o: Counter) => {
        o.count = 5;
      },
    ]) {
      let builds = 0;
      const counter = builtOnFirstUse(() => {
        builds++;
        return new Counter();
      });
      expect(builds).toBe(0);
      use(counter);
      use(counter);
      expect(builds).toBe(1);
    }
  });

  it("answers as the object: fields, getters, methods, writes, prototype and keys", () => {
    const counter = builtOnFirstUse(() => new Counter());
    expect(counter.bump()).toBe(1);
    counter.count = 4;
    expect(counter.doubled).toBe(8);
    expect(counter).toBeInstanceOf(Counter);
    expect("bump" in counter).toBe(true);
    expect(Object.keys(counter)).toEqual(["count"]);
    expect({ ...counter }).toEqual({ count: 4 });
    expect(Object.getOwnPropertyDescriptor(counter, "count")).toMatchObject({ value: 4, writable: true });
  });

  it("is a drizzle table to drizzle: its name, its columns, and queries built from it", async () => {
    let builds = 0;
    const notes = builtOnFirstUse(() => {
      builds++;
      return sqliteTable("notes_probe", { id: text("id").primaryKey(), body: text("body") });
    });
    expect(builds).toBe(0);
    expect(is(notes, SQLiteTable)).toBe(true);
    expect(getTableName(notes)).toBe("notes_probe");
    expect(Object.keys(getTableColumns(notes))).toEqual(["id", "body"]);
    const db = database(env.DB);
    expect(db.select({ body: notes.body }).from(notes).where(eq(notes.id, "n1")).limit(1).toSQL()).toEqual({
      sql: 'select "body" from "notes_probe" where "notes_probe"."id" = ? limit ?',
      params: ["n1", 1],
    });
    expect(builds).toBe(1);
    // A table of the schema, against D1: written and read back through its stand-in.
    const row = {
      id: "usr_probe_built_on_first_use",
      email: "probe@example.org",
      passwordHash: "x",
      userType: "PERSONAL" as const,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
    };
    await db.insert(users).values(row);
    const [read] = await db.select().from(users).where(eq(users.id, row.id)).limit(1);
    expect(read).toMatchObject({ ...row, emailVerified: false, tokenVersion: 0, locale: "en" });
  });
});
