// The shape of one catalogued mutation and the check that keeps the catalogue honest: each `find` must
// occur exactly once in its file, so an entry that went stale when code moved fails loudly instead of
// mutating nothing (or the wrong line). Pure, so both the runner and the suite's check use it.

export type Mutation = {
  /** Stable, kebab-case: `npm run mutants -- --only id1,id2` selects by it. */
  id: string;
  /** The source file, from the repository root. */
  file: string;
  /** Text that occurs exactly once in `file` (whitespace aside: see findPattern). */
  find: string;
  replace: string;
  /** Test files (from the root) of which at least one must fail while the mutation is applied. */
  tests: string[];
  /** The break in words: what a survivor would let through. */
  why: string;
};

/**
 * `find` as a pattern that ignores layout: the formatter (biome.json) may break a line, re-indent it, or add
 * a trailing comma before a closing bracket, which changes no meaning, so an entry names the code, not its
 * layout.
 */
function findPattern(find: string, flags: string): RegExp {
  const parts = [...find.replace(/\s+/g, "")].map((c) => (")]}".includes(c) ? ",?\\s*" : "") + c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(parts.join("\\s*"), flags);
}

/** How many times `find` occurs in `text`, whatever the whitespace (overlaps not counted). */
export function occurrences(text: string, find: string): number {
  if (find.trim() === "") return 0;
  return [...text.matchAll(findPattern(find, "g"))].length;
}

/** The problems of an entry against its file's text (null when the file is missing); [] when sound. */
export function entryProblems(mutation: Mutation, fileText: string | null, testExists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  if (fileText === null) problems.push(`${mutation.file} does not exist`);
  else {
    const count = occurrences(fileText, mutation.find);
    if (count !== 1) problems.push(`its find text occurs ${count} times in ${mutation.file} (it must occur exactly once)`);
  }
  if (mutation.find === mutation.replace) problems.push("find and replace are the same");
  if (mutation.tests.length === 0) problems.push("it names no test file");
  for (const test of mutation.tests) if (!testExists(test)) problems.push(`test file ${test} does not exist`);
  return problems;
}

/** The text with the mutation applied (the caller has checked that `find` occurs once). */
export const applyMutation = (text: string, mutation: Mutation) => text.replace(findPattern(mutation.find, ""), () => mutation.replace);

/** The vitest project a test file runs in (vitest.config.ts): Node for test/node and test/tools, else workerd. */
export const projectOf = (testFile: string) => (/^test\/(node|tools)\//.test(testFile) ? "node" : "workers");
