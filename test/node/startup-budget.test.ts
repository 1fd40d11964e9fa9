// Start-up as a counted budget (docs/performance.md): a fresh isolate that evaluates the Worker builds no zod schema
// and no drizzle table. Building the ~800 schemas the modules declare was half of the start-up CPU before
// src/lib/lazy-zod.ts deferred each to its first use, and drizzle's 22 tables the next largest part before
// src/db/schema.ts did the same (docs/performance.md "Start-up by dependency"); a module that builds one at
// its top level (a schema or a table's column used eagerly, a new import of zod itself) fails here, by
// count, not by timer. The Worker is built as deployed but unminified (wrangler deploy --dry-run), zod's
// one constructor of every schema and drizzle's one builder of every SQLite table get a counter, and the
// script is imported in wrangler's own workerd.
import { describe, expect, it } from "vitest";

/** What this test uses of test/bench/startup.ts (a Node tool the root tsconfig does not check: imported by name). */
type StartupTool = {
  buildWorker(
    config: undefined,
    minify: false,
  ): Promise<{
    compatibilityDate: string;
    compatibilityFlags: string[];
    mainModule: string;
    modules: { path: string; contents: Uint8Array | string }[];
  }>;
  Miniflare: new (options: Record<string, unknown>) => { dispatchFetch(url: string): Promise<Response>; dispose(): Promise<void> };
};
const startupTool = "../bench/startup";

const counter = (name: string) => `globalThis.${name} = (globalThis.${name} ?? 0) + 1;`;

describe("start-up budget", () => {
  it("builds no zod schema and no drizzle table while the Worker's modules are evaluated", { timeout: 120_000 }, async () => {
    const { buildWorker, Miniflare } = (await import(/* @vite-ignore */ startupTool)) as StartupTool;
    const bundle = await buildWorker(undefined, false);
    const main = bundle.modules.find((module) => module.path === bundle.mainModule)!;
    const script = new TextDecoder().decode(main.contents as Uint8Array);
    // zod's $constructor returns `function _(def)`: every schema instance is made by one of them.
    const zodCounted = script.replace(/^(\s*)function _\(def\) \{$/m, `$1function _(def) { ${counter("__zodSchemasBuilt")}`);
    expect(zodCounted, "zod's schema constructor was not found in the bundle: the counter needs updating").not.toBe(script);
    // drizzle's sqliteTable (and every other way to make a SQLite table) goes through sqliteTableBase.
    const counted = zodCounted.replace(/^(function sqliteTableBase\([^)]*\) \{)$/m, `$1 ${counter("__tablesBuilt")}`);
    expect(counted, "drizzle's table builder was not found in the bundle: the counter needs updating").not.toBe(zodCounted);
    // zod/mini's schemas, not classic zod's: classic zod in the bundle is all of it, evaluated at start-up
    // (src/lib/lazy-zod.ts), brought back by any value import of it.
    expect(script).toContain('$constructor("ZodMiniObject"');
    expect(script).not.toContain('$constructor("ZodObject"');

    const mf = new Miniflare({
      compatibilityDate: bundle.compatibilityDate,
      compatibilityFlags: bundle.compatibilityFlags,
      modulesRoot: "/",
      modules: [
        {
          type: "ESModule",
          path: "count-schemas.mjs",
          contents: `export default { async fetch() {
            await import("./${bundle.mainModule}");
            return Response.json({ schemas: globalThis.__zodSchemasBuilt ?? 0, tables: globalThis.__tablesBuilt ?? 0 });
          } };`,
        },
        ...bundle.modules.map((module) => (module === main ? { ...module, contents: counted } : module)),
      ],
    });
    try {
      const built = await (await mf.dispatchFetch("https://startup.invalid/")).json();
      expect(built).toEqual({ schemas: 0, tables: 0 });
    } finally {
      await mf.dispose();
    }
  });
});
