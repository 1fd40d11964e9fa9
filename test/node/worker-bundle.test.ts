// The Worker's script as `wrangler deploy` builds it (wrangler.toml's own settings), in every environment:
// - the OpenAPI document builder, zod-to-OpenAPI glue and the /docs renderer are not in it: the document
//   and the page are static files (public/api/openapi.json, public/docs.html, `npm run openapi`), and an
//   import from the Worker's code would pull them back unnoticed;
// - the routes' OpenAPI descriptions are dropped (wrangler.toml [define] OPENAPI_METADATA, repeated in
//   every environment since wrangler's schema calls define not inherited), and so are the schemas' own
//   (`.describe(OPENAPI_METADATA ? "…" : "")`): no schema description is left in the script;
// - the development pages (src/apps/dev) are in the development script only (DEVELOPMENT_PAGES);
// Its size against the 120 KiB gzip budget (docs/performance.md) is measured and reported by the bench
// (test/bench/bundle-size.ts, docs/performance.md "Bundle"), not asserted here: main is over it since
// the end-user pages' catalogues (src/web/i18n/) joined the script.
import { describe, expect, it } from "vitest";

// Node's modules, loaded untyped: the project's type-check sees the Workers types, not Node's.
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);

/**
 * Builds the script with `wrangler deploy --dry-run`: its code, esbuild's list of input files (every module
 * it read) and the modules with code in the script (read, but not all dropped as unused).
 */
async function build(env: string | null): Promise<{ code: string; inputs: string[]; bundled: string[] }> {
  const [{ execFile }, fs, os, path, { fileURLToPath }] = await Promise.all(
    ["node:child_process", "node:fs", "node:os", "node:path", "node:url"].map(node),
  );
  const root: string = fileURLToPath(new URL("../../", import.meta.url));
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "worker-bundle-"));
  try {
    const args = ["deploy", "--dry-run", "--outdir", outdir, "--metafile", path.join(outdir, "meta.json"), ...(env ? ["--env", env] : [])];
    await new Promise<void>((resolve, reject) =>
      execFile(
        path.join(root, "node_modules", ".bin", "wrangler"),
        args,
        { cwd: root, maxBuffer: 1 << 24 },
        (error: Error | null, _out: string, err: string) =>
          error ? reject(new Error(`wrangler ${args.join(" ")}: ${error.message}\n${err}`)) : resolve(),
      ),
    );
    const meta = JSON.parse(fs.readFileSync(path.join(outdir, "meta.json"), "utf8")) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const script = Object.entries(meta.outputs).find(([name]) => name.endsWith("index.js"))![1];
    const bundled = Object.entries(script.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file);
    return { code: fs.readFileSync(path.join(outdir, "index.js"), "utf8"), inputs: Object.keys(meta.inputs), bundled };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/** Modules only the generators of the static document and pages need (/docs, and /console's shell, public/console/). */
const GENERATOR_ONLY = [
  "src/http/openapi-document.ts",
  "src/http/openapi-callbacks.ts",
  "src/web/api-reference-page.tsx",
  "src/web/api-reference.ts",
  "src/web/schema-example.ts",
  "src/apps/console/console-page.tsx",
  "src/apps/console/console-callbacks.tsx",
  "src/apps/console/console-table.tsx",
  "src/apps/console/secret-field.tsx",
];
// Texts only a route's describe() metadata (health/check-health.ts's prose), the limits catalogue's prose (http/limits.ts), the builder and the reference page hold.
const DOCUMENT_ONLY_TEXT = [
  "Liveness, including a D1 round trip",
  "credential stuffing: one client trying many emails",
  "Stable UPPER_SNAKE machine code.",
  "Errors share one envelope",
  // Schema descriptions (domain, session view, routes) and an area's shared response prose.
  "Where the end user's result screen offers to go back to",
  "The digits the person types in the wallet",
  "refused before the credential is checked: nothing of an account is read",
];
/** A schema description left in the script: `.describe(` with a text that is not empty. */
const SCHEMA_DESCRIPTION = /\.describe\(\s*(["'`])(?!\1)/;
/** The development pages' modules. */
const DEVELOPMENT_PAGES = ["src/apps/dev/dev-routes.tsx", "src/apps/dev/outbox-page.tsx"];

describe("the Worker's script", () => {
  it("leaves out the OpenAPI builder, the reference and console pages' markup and the routes' and schemas' descriptions", {
    timeout: 180_000,
  }, async () => {
    const { code, inputs, bundled } = await build(null);
    // The build is real: the app's own modules are in it.
    expect(inputs).toContain("src/app.ts");
    expect(inputs).toContain("src/routes/health/check-health.ts");
    for (const file of GENERATOR_ONLY) expect(inputs, file).not.toContain(file);
    for (const text of DOCUMENT_ONLY_TEXT) expect(code.includes(text), text).toBe(false);
    expect(SCHEMA_DESCRIPTION.exec(code)?.[0]).toBeUndefined();
    for (const file of DEVELOPMENT_PAGES) expect(bundled, file).toContain(file);
  });

  it.each(["production", "staging"])("in %s too", { timeout: 180_000 }, async (env) => {
    const { code, inputs, bundled } = await build(env);
    expect(inputs).toContain("src/app.ts");
    for (const file of GENERATOR_ONLY) expect(inputs, file).not.toContain(file);
    for (const text of DOCUMENT_ONLY_TEXT) expect(code.includes(text), text).toBe(false);
    expect(SCHEMA_DESCRIPTION.exec(code)?.[0]).toBeUndefined();
    // Production's script carries no development-only module (esbuild reads them, and drops them unused).
    expect(bundled).toContain("src/app.ts");
    for (const file of DEVELOPMENT_PAGES) expect(bundled, file).not.toContain(file);
    expect(code.includes("Development outbox")).toBe(false);
  });
});
