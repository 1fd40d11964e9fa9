// The mutation catalogue stays applicable as the code moves: every entry's text occurs exactly once in
// its file and names test files that exist, so a stale entry fails here (cheaply, in every run of the
// suite) before `npm run mutants` would refuse it. The runner's own checks are tested on small cases.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { catalogue } from "../mutants/catalogue";
import { applyMutation, entryProblems, occurrences, projectOf, type Mutation } from "../mutants/mutation";

const entry = (overrides: Partial<Mutation> = {}): Mutation => ({
  id: "x",
  file: "src/x.ts",
  find: "a > b",
  replace: "a >= b",
  tests: ["test/x.test.ts"],
  why: "x",
  ...overrides,
});

describe("the mutation catalogue", () => {
  it("has at least 60 entries with unique ids", () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(60);
    expect(new Set(catalogue.map((m) => m.id)).size).toBe(catalogue.length);
  });

  it.each(catalogue.map((m) => [m.id, m] as const))("%s applies exactly once and names existing tests", (_id, mutation) => {
    const text = existsSync(mutation.file) ? readFileSync(mutation.file, "utf8") : null;
    expect(entryProblems(mutation, text, existsSync)).toEqual([]);
    expect(applyMutation(text!, mutation)).not.toBe(text);
  });
});

describe("the runner's checks", () => {
  it("refuses a find text that is missing or occurs twice, a missing file and a missing test", () => {
    expect(entryProblems(entry(), "if (a > b) return;", () => true)).toEqual([]);
    expect(entryProblems(entry(), "if (a > c) return;", () => true)).toEqual([
      "its find text occurs 0 times in src/x.ts (it must occur exactly once)",
    ]);
    expect(entryProblems(entry(), "a > b || a > b", () => true)).toEqual([
      "its find text occurs 2 times in src/x.ts (it must occur exactly once)",
    ]);
    expect(entryProblems(entry(), null, () => true)).toEqual(["src/x.ts does not exist"]);
    expect(entryProblems(entry(), "a > b", () => false)).toEqual(["test file test/x.test.ts does not exist"]);
    expect(entryProblems(entry({ tests: [] }), "a > b", () => true)).toEqual(["it names no test file"]);
  });

  it("finds the code whatever the formatter did to its whitespace, and only that code", () => {
    expect(occurrences("if (a >\n      b) return;", "a > b")).toBe(1);
    expect(occurrences("if (a>b) return;", "a > b")).toBe(1);
    expect(occurrences("if (a >= b) return;", "a > b")).toBe(0);
    expect(occurrences("f(\n  a,\n  b,\n);", "f(a, b);")).toBe(1);
    expect(occurrences("f(a, b, c);", "f(a, b);")).toBe(0);
    expect(applyMutation("if (\n  a > b\n) return;", entry({ find: "(a > b)", replace: "(true)" }))).toBe("if (true) return;");
  });

  it("replaces literally (no $ patterns) and picks the project by path", () => {
    expect(occurrences("aXaXa", "a")).toBe(3);
    expect(applyMutation("x = `${y}`", entry({ find: "`${y}`", replace: "'$&$1'" }))).toBe("x = '$&$1'");
    expect(projectOf("test/node/openapi.test.ts")).toBe("node");
    expect(projectOf("test/tools/mutants.test.ts")).toBe("node");
    expect(projectOf("test/merchant/receipts.test.ts")).toBe("workers");
  });
});
