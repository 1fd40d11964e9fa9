/// <reference types="vite/client" />
// No doc names what does not exist: every file path, npm script, API route, page route and function that
// README.md, CHANGELOG.md and docs/**/*.md mention is checked against the tree, package.json, the OpenAPI
// document, the app's routes and the sources.
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import { createApp } from "../../src/app";
import { buildOpenApiDocument } from "../../src/http/openapi-document";

const docs = import.meta.glob<string>(["../../README.md", "../../CHANGELOG.md", "../../docs/**/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});
/** A glob key (relative to this file, test/node/) as a path from the repository root. */
function fromRoot(key: string): string {
  const parts = ["test", "node"];
  for (const part of key.split("/")) part === ".." ? parts.pop() : part !== "." && parts.push(part);
  return parts.join("/");
}
const tree = Object.keys(
  import.meta.glob([
    "../../**/*",
    "../../.ci/*",
    "../../.gitignore",
    "!../../node_modules/**",
    "!../../.wrangler/**",
    "!../../test/artifacts/**",
    "!../../.git/**",
  ]),
)
  .map(fromRoot)
  // A module's glob never lists the module itself.
  .concat("test/node/doc-references.test.ts");
const sources = Object.values(
  import.meta.glob<string>(["../../src/**/*.{ts,tsx,js}", "../../test/**/*.{ts,mjs}", "../../docs/examples/**/*.{ts,py}"], {
    query: "?raw",
    import: "default",
    eager: true,
  }),
).join("\n");

const app = createApp();
const document = buildOpenApiDocument(app);
const apiPaths = Object.entries(document.paths).map(([path, methods]) => ({
  pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`),
  methods: Object.keys(methods),
}));
const pagePatterns = app.routes
  .filter((r) => !r.path.startsWith("/api") && r.method === "GET")
  .map((r) => new RegExp(`^${r.path.replace(/:\w+/g, "[^/]+").replace(/\/\*$/, "(/.*)?")}$`));

const isPlaceholder = (text: string) => /[…<>]|\.\.\./.test(text);

/** A repository path exists as a file or a folder; `*` matches within one name. */
function pathExists(path: string): boolean {
  const clean = path.replace(/\/$/, "").replace(/^\.\//, "");
  if (clean.includes("*")) {
    const pattern = new RegExp(
      `^${clean
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\*\*\//g, "\u0000")
        .replace(/\*/g, "[^/]*")
        .replaceAll("\u0000", "(?:.*/)?")}$`,
    );
    return tree.some((file) => pattern.test(file));
  }
  return tree.includes(clean) || tree.some((file) => file.startsWith(`${clean}/`));
}

/** `/api/...` with `{param}` or concrete ids; a METHOD, when given, must exist on it. */
function routeExists(method: string | undefined, path: string): boolean {
  const match = apiPaths.find((p) => p.pattern.test(path.replace(/\{\w+\}/g, "x")));
  return !!match && (!method || match.methods.includes(method.toLowerCase()));
}

type Finding = { file: string; kind: string; name: string };

function findings(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
  for (const m of text.matchAll(/npm run ([\w:-]+)/g)) out.push({ file, kind: "script", name: m[1]! });
  for (const m of text.matchAll(/(?<![\w/.-])((?:src|public|test|docs|drizzle|\.ci)\/[\w./*-]*[\w*/])/g))
    out.push({ file, kind: "path", name: m[1]! });
  for (const m of text.matchAll(
    /`((?:package\.json|package-lock\.json|wrangler\.toml|tsconfig\.json|vitest\.config\.ts|drizzle\.config\.ts|README\.md|CHANGELOG\.md))`/g,
  ))
    out.push({ file, kind: "path", name: m[1]! });
  for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
    if (/^(https?:|mailto:)/.test(m[1]!)) continue;
    const parts: string[] = [];
    for (const part of (dir + m[1]!).split("/")) part === ".." ? parts.pop() : part !== "." && parts.push(part);
    out.push({ file, kind: "link", name: parts.join("/") });
  }
  for (const m of text.matchAll(/(?:\b(GET|POST|PUT|PATCH|DELETE) +)?(\/api\/[^\s`"'<>)\],?]*)/g)) {
    out.push({ file, kind: m[1] ? `route ${m[1]}` : "route", name: m[2]!.replace(/[.:;]+$/, "") });
  }
  for (const m of text.matchAll(/`(\/(?!api\b)[a-z][\w./-]*)(?:\?[^`]*)?`/g)) out.push({ file, kind: "page", name: m[1]! });
  for (const m of text.matchAll(/`(?:[\w.]+\.)?([a-zA-Z_]\w*)\([^`]*\)`/g)) out.push({ file, kind: "function", name: m[1]! });
  return out.filter((f) => !isPlaceholder(f.name));
}

function exists(f: Finding): boolean {
  switch (f.kind) {
    case "script":
      return f.name in packageJson.scripts;
    case "path":
    case "link":
      return pathExists(f.name);
    case "page":
      return pagePatterns.some((p) => p.test(f.name)) || pathExists(f.name.slice(1));
    case "function":
      return new RegExp(`\\b${f.name}\\b`).test(sources);
    default:
      return routeExists(f.kind.split(" ")[1], f.name.replace(/\*$/, "x"));
  }
}

/**
 * docs/api-contract.md marks a decision not built yet with "(1.3.0)" at the end of its heading: such a
 * section names routes and settings the code does not have yet, so it is left out (down to the next
 * heading of its level or above) until the mark goes. Every other doc, and every other section, is checked.
 */
function withoutUnbuiltSections(file: string, text: string): string {
  if (file !== "docs/api-contract.md") return text;
  let skipBelow = 0;
  return text
    .split("\n")
    .filter((line) => {
      const heading = /^(#+) /.exec(line);
      if (heading) {
        const level = heading[1]!.length;
        if (skipBelow && level > skipBelow) return false;
        skipBelow = /\(\d+\.\d+\.\d+\)\s*$/.test(line) ? level : 0;
        return !skipBelow;
      }
      return !skipBelow;
    })
    .join("\n");
}

const all = Object.entries(docs).flatMap(([path, text]) => {
  const file = path.replace("../../", "");
  return findings(file, withoutUnbuiltSections(file, text));
});

describe("names in the docs", () => {
  it("finds paths, scripts, routes, pages and functions to check", () => {
    const kinds = new Set(all.map((f) => f.kind.split(" ")[0]));
    expect([...kinds].sort()).toEqual(["function", "link", "page", "path", "route", "script"].sort());
    expect(all.length).toBeGreaterThan(100);
  });

  it("every one of them exists", () => {
    expect(all.filter((f) => !exists(f)).map((f) => `${f.file}: ${f.kind} ${f.name}`)).toEqual([]);
  });

  it("would catch a name that does not exist", () => {
    const wrong = findings(
      "docs/x.md",
      "Run `npm run nope`, read `src/domain/gone.ts` and [that](../nowhere.md), call GET /api/age-verification/sessions or DELETE /api/health, open `/nowhere`, call `verifiedDateOfBirthGone(db)`.",
    );
    expect(wrong.filter((f) => exists(f))).toEqual([]);
    expect(wrong.length).toBe(7);
  });

  it("leaves out only the sections of docs/api-contract.md marked as not built yet", () => {
    const contract =
      "## Built\nGET /api/built\n## Planned (1.3.0)\nGET /api/planned\n### Its part\nGET /api/part\n## Next\nGET /api/next\n### Sub (1.3.0)\nGET /api/sub";
    const checked = (file: string) => findings(file, withoutUnbuiltSections(file, contract)).map((f) => f.name);
    expect(checked("docs/api-contract.md")).toEqual(["/api/built", "/api/next"]);
    expect(checked("docs/other.md")).toEqual(["/api/built", "/api/planned", "/api/part", "/api/next", "/api/sub"]);
  });
});
