/// <reference types="vite/client" />
// docs/errors.md names every code of the error catalogue (src/errors.ts) with its HTTP status and what to
// do, and no code the catalogue lacks.
import { describe, expect, it } from "vitest";
import errorsMd from "../../docs/errors.md?raw";
import { ERROR_CATALOGUE, ERROR_CODES } from "../../src/errors";

/** The table rows: | `CODE` | status | meaning | what to do | */
const rows = [...errorsMd.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| ([^|]+) \| ([^|]+) \|$/gm)].map((m) => ({
  code: m[1]!,
  status: Number(m[2]),
  meaning: m[3]!.trim(),
  todo: m[4]!.trim(),
}));

describe("docs/errors.md", () => {
  it("has one row per catalogue code, with the code's status, a meaning and what to do", () => {
    expect(rows.map((row) => row.code).sort()).toEqual([...ERROR_CODES].sort());
    for (const row of rows) {
      expect(row.status, row.code).toBe(ERROR_CATALOGUE[row.code as keyof typeof ERROR_CATALOGUE].status);
      expect(row.meaning.length, row.code).toBeGreaterThan(10);
      expect(row.todo.length, row.code).toBeGreaterThan(5);
    }
  });
});
