/// <reference types="vite/client" />
// The import graph of src/ points one way (docs in ARCHITECTURE and the README's source map): no cycle,
// nothing below the HTTP layer imports http/, routes/, the app or Hono, and lib/ and db/ import nothing
// of ours outside themselves. Type-only imports count: a type cycle is still a cycle for a reader. The
// browser files and the stylesheet (imported as text) are nodes too: their JSDoc imports are edges.
import { describe, expect, it } from "vitest";

const sources = import.meta.glob<string>("../../src/**/*.{ts,tsx,js,css}", { query: "?raw", import: "default", eager: true });

/** src-relative path ("domain/kyc.ts") -> its text. */
const files = new Map(Object.entries(sources).map(([path, text]) => [path.replace("../../src/", ""), text]));

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)|^import\s*"([^"]+)"/gm;

function specifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => (m[1] ?? m[2] ?? m[3])!);
}

function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith(".")) return null;
  const parts = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  const base = parts.join("/");
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (files.has(candidate)) return candidate;
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

type Edge = { from: string; to: string };

function graph() {
  const internal: Edge[] = [];
  const external: { from: string; module: string }[] = [];
  for (const [from, text] of files) {
    for (const specifier of specifiers(text)) {
      const to = resolve(from, specifier);
      if (to) internal.push({ from, to });
      else external.push({ from, module: specifier });
    }
  }
  return { internal, external };
}

/** Every cycle's path, found by depth-first search (each reported once, from its first file met). */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (state.get(to) === "open") found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...new Set(edges.map((e) => e.from))].sort()) if (!state.has(file)) visit(file);
  return found;
}

const layer = (file: string) => (file.includes("/") ? file.split("/")[0]! : file.replace(/\.tsx?$/, ""));

/** The layers below the HTTP one: they are used by routes and http, and never use them. */
const LOWER = new Set(["domain", "lib", "db", "providers", "session", "callbacks", "mail", "config", "errors"]);
const UPPER = new Set(["http", "routes", "app", "index"]);
const isHono = (module: string) => module === "hono" || module.startsWith("hono/") || module.startsWith("@hono/");

describe("import graph", () => {
  const { internal, external } = graph();

  it("reads every source file and its imports", () => {
    expect(files.size).toBeGreaterThan(50);
    expect(internal.length).toBeGreaterThan(150);
    // The search itself finds a cycle where there is one.
    expect(cycles([{ from: "a", to: "b" }, { from: "b", to: "c" }, { from: "c", to: "a" }])).toEqual([["a", "b", "c", "a"]]);
  });

  it("has no cycle, type-only imports included", () => {
    expect(cycles(internal).map((cycle) => cycle.join(" -> "))).toEqual([]);
  });

  it("has no arrow from domain, lib, db, providers, session, callbacks, mail, config or errors up into http/, routes/, the app or Hono", () => {
    const upward = [
      ...internal.filter(({ from, to }) => LOWER.has(layer(from)) && UPPER.has(layer(to))).map(({ from, to }) => `${from} -> ${to}`),
      ...external.filter(({ from, module }) => LOWER.has(layer(from)) && isHono(module)).map(({ from, module }) => `${from} -> ${module}`),
    ];
    expect(upward).toEqual([]);
  });

  it("keeps lib/ and db/ free of the rest of the code", () => {
    const outward = internal
      .filter(({ from, to }) => (layer(from) === "lib" || layer(from) === "db") && layer(to) !== layer(from))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(outward).toEqual([]);
  });

  it("lets only http/, routes/, web/ (for its JSX) and the app import Hono", () => {
    const importers = [...new Set(external.filter(({ module }) => isHono(module)).map(({ from }) => layer(from)))].sort();
    expect(importers.filter((l) => !["app", "http", "routes", "web"].includes(l))).toEqual([]);
  });
});
