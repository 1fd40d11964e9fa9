// Which workerd test files need no binding: they import "cloudflare:test" neither themselves nor through
// a test helper (src/ never imports it), nor "cloudflare:workers", whose `env` holds the same bindings and
// whose `exports` is the Worker itself (src/ imports only its DurableObject class, from one module that no
// binding-free file reaches; a file that did would lose only the skip). Importing "cloudflare:test" loads the whole Worker (src/index.ts
// and its dependencies, some 500 modules) into the test file's fresh module graph, which is most of a
// test file's set-up time; the setup file (test/apply-migrations.ts) skips it, and the migrations such a
// file could not reach anyway, for the files listed here (test/README.md, "Where the suite's time goes").
// Read by vitest.config.ts, in Node, before the run.

// Node's modules, loaded untyped: the project's type-check sees the Workers types, not Node's.
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const [fs, path] = await Promise.all(["node:fs", "node:path"].map(node));

const IMPORTS = /(?:^|[\s;])(?:import|export)\s*(?:[\w*{}\s,]*?\sfrom\s*)?\(?\s*"([^"]+)"/gm;

/** The file a relative import names (with or without its .ts/.tsx extension, or a folder's index.ts). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base: string = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) =>
    fs.statSync(candidate, { throwIfNoEntry: false })?.isFile(),
  );
}

const TEST_MODULE = "cloudflare:test";
/** The modules through which a test file reaches the bindings. */
const BINDING_MODULES = new Set([TEST_MODULE, "cloudflare:workers"]);

/** What `file` imports that matters here: the test module, and the files its relative imports name. */
function importsOf(file: string, known: Map<string, string[]>): string[] {
  let targets = known.get(file);
  if (targets === undefined) {
    targets = [];
    for (const [, specifier] of (fs.readFileSync(file, "utf8") as string).matchAll(IMPORTS)) {
      if (BINDING_MODULES.has(specifier!)) targets.push(TEST_MODULE);
      else if (specifier!.startsWith(".")) {
        const target = resolveRelative(file, specifier!);
        if (target) targets.push(target);
      }
    }
    known.set(file, targets);
  }
  return targets;
}

/** Whether `file` reaches "cloudflare:test" or "cloudflare:workers" through its relative imports (a walk of its own, so a cycle cannot hide a path). */
export function reachesBindings(file: string, known: Map<string, string[]> = new Map()): boolean {
  const seen = new Set([file]);
  const next = [file];
  while (next.length > 0) {
    for (const target of importsOf(next.pop()!, known)) {
      if (target === TEST_MODULE) return true;
      if (!seen.has(target)) {
        seen.add(target);
        next.push(target);
      }
    }
  }
  return false;
}

/** The absolute paths of the `.test.ts` files under `folder` that reach no binding. */
export function bindingFreeTests(folder: string): string[] {
  const known = new Map<string, string[]>();
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.resolve(folder, name))
    .filter((file) => !reachesBindings(file, known))
    .sort();
}
