/// <reference types="vite/client" />
// Everything the repository cites is in the repository: a newcomer can open every reference. No source
// file, test, doc, package or migration names a document kept outside it (a "contract" file, a sibling
// folder such as ../shared) or an issue tracker's number; a decision is cited by its section of
// docs/api-contract.md instead. Markdown links resolve to a file of the repository, never above its root,
// and a file path a doc names in backticks exists (from the root, from the doc's folder, or as the end of a
// repository path: `verification/open-session.ts` under src/routes/).
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";

// Text files by extension keep binary and generated files out; a module's glob never lists the module itself.
const texts = import.meta.glob<string>(
  [
    "../../{src,test,docs,packages,drizzle,.ci}/**/*.{ts,tsx,js,mjs,cjs,md,sql,css,html,json,toml,yml,yaml,sh,py,txt}",
    "../../public/api/*.json",
    "../../.ci/*",
    "../../README.md",
    "../../CHANGELOG.md",
    "../../wrangler.toml",
    "../../package.json",
    "!../../**/node_modules/**",
    "!../../test/artifacts/**",
    "!../../packages/*/dist/**",
  ],
  { query: "?raw", import: "default", eager: true },
);

/** The replacement tool names what it replaces: the one file allowed to spell the old citations. */
const REPLACEMENT_TOOL = "test/tools/cite-the-contract.ts";

/** A glob key (relative to test/node/) as a path from the repository root. */
function fromRoot(key: string): string {
  const parts = ["test", "node"];
  for (const part of key.split("/")) part === ".." ? parts.pop() : part !== "." && parts.push(part);
  return parts.join("/");
}

const files = Object.fromEntries(Object.entries(texts).map(([key, text]) => [fromRoot(key), text]));
const tree = new Set(
  Object.keys(
    import.meta.glob([
      "../../**/*",
      "../../.ci/*",
      "!../../node_modules/**",
      "!../../.wrangler/**",
      "!../../test/artifacts/**",
      "!../../.git/**",
    ]),
  )
    .map(fromRoot)
    .concat("test/node/no-outside-references.test.ts"),
);
/** A path inside an installed package (`drizzle-orm/…`) names a dependency's file, not one of ours. */
const dependencies = new Set(Object.keys({ ...packageJson.dependencies, ...packageJson.devDependencies }));
const exists = (path: string) => tree.has(path) || [...tree].some((file) => file.startsWith(`${path}/`));

// Spelled in pieces so that this file does not match itself when a tool greps the repository.
const CONTRACT = ["CONTR", "ACT"].join("");
const ISSUE = ["iss", "ue"].join("");
const OUTSIDE: { name: string; pattern: RegExp }[] = [
  // The word in capitals names that file however the citation goes on ("§5", ".md", a line break, "readers").
  { name: "a contract file outside the repository", pattern: new RegExp(`\\b${CONTRACT}\\b`, "g") },
  { name: "a sibling folder outside the repository", pattern: /\.\.\/shared\b/g },
  // "issue 30", "Issue 33", "issue #4", "issues #4", "issues/12"; not the verb ("issues 1-10 tokens").
  { name: "an issue number", pattern: /\b[Ii]ssue +#?\d+\b|\b[Ii]ssues +#\d+\b|\bissues\/\d+\b/g },
];

type Finding = string;

/** Every reference to something outside the repository in one file's text, as `file:line: text`. */
function outsideReferences(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  text.split("\n").forEach((line, index) => {
    for (const { name, pattern } of OUTSIDE) {
      for (const match of line.matchAll(pattern)) out.push(`${file}:${index + 1}: ${name}: "${match[0]}"`);
    }
  });
  return out;
}

/** A relative path from a file's folder, or null when it climbs above the repository's root. */
function resolve(fromFile: string, target: string): string | null {
  const parts = fromFile.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

const isPlaceholder = (text: string) => /[…<>*{}$]|\.\.\./.test(text);

/** Markdown links that leave the repository or lead to no file, and backticked paths that name no file. */
function brokenLinks(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][\w+.-]*:/i.test(target)) continue;
    const path = target.startsWith("/") ? null : resolve(file, target);
    if (path === null) out.push(`${file}: link outside the repository: ${target}`);
    else if (!exists(path)) out.push(`${file}: link to a missing file: ${target}`);
  }
  for (const m of text.matchAll(/`([\w.-]+(?:\/[\w.-]+)+\.(?:ts|tsx|js|mjs|md|sql|json|toml|css|py|pem))`/g)) {
    const path = m[1]!;
    if (isPlaceholder(path) || dependencies.has(path.split("/")[0]!)) continue;
    const fromHere = resolve(file, path);
    const named = exists(path) || (fromHere !== null && exists(fromHere)) || [...tree].some((known) => known.endsWith(`/${path}`));
    if (!named) out.push(`${file}: a path that names no file: ${path}`);
  }
  return out;
}

const markdown = Object.entries(files).filter(
  ([file]) => file.endsWith(".md") && (file.startsWith("docs/") || !file.includes("/") || file.startsWith("packages/")),
);

describe("no reference outside the repository", () => {
  it("reads the sources, tests, docs, packages and migrations", () => {
    const read = Object.keys(files);
    for (const folder of ["src/", "test/", "docs/", "packages/", "drizzle/"])
      expect(
        read.some((file) => file.startsWith(folder)),
        folder,
      ).toBe(true);
    expect(read).toContain("README.md");
    expect(read).toContain("CHANGELOG.md");
    expect(markdown.length).toBeGreaterThan(20);
  });

  it("no file cites a contract kept elsewhere, a folder beside the repository or an issue number", () => {
    const found = Object.entries(files)
      .filter(([file]) => file !== REPLACEMENT_TOOL)
      .flatMap(([file, text]) => outsideReferences(file, text));
    expect(found).toEqual([]);
  });

  it("every markdown link and backticked path in the docs leads to a file of the repository", () => {
    expect(markdown.flatMap(([file, text]) => brokenLinks(file, text))).toEqual([]);
  });

  it("would catch each kind of reference", () => {
    const text = [
      `// See ${CONTRACT} §5.`,
      `see ${CONTRACT}.md`,
      "from ../shared/spec",
      `(${ISSUE} 30)`,
      `I${ISSUE.slice(1)} 33: fits`,
      "issues/12",
      "issue #4",
    ].join("\n");
    expect(outsideReferences("src/x.ts", text).map((finding) => finding.split(": ").pop())).toEqual([
      `"${CONTRACT}"`,
      `"${CONTRACT}"`,
      '"../shared"',
      `"${ISSUE} 30"`,
      `"I${ISSUE.slice(1)} 33"`,
      '"issues/12"',
      '"issue #4"',
    ]);
    expect(
      outsideReferences(
        "src/x.ts",
        "the zod issue's path; an issue with 3 parts; issues 1-10 tokens; a contract; docs/api-contract.md §Sessions",
      ),
    ).toEqual([]);
    const links =
      "[a](../../outside.md) [b](missing.md) [c](api-contract.md) [d](https://example.com) `routes/provider-webhook.ts` `src/app.ts` `http/respond.ts` `drizzle-orm/sqlite-core/db.js`";
    expect(brokenLinks("docs/x.md", links)).toEqual([
      "docs/x.md: link outside the repository: ../../outside.md",
      "docs/x.md: link to a missing file: missing.md",
      "docs/x.md: a path that names no file: routes/provider-webhook.ts",
    ]);
  });
});
