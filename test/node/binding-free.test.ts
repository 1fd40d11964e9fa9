// The list of test files whose setup skips "cloudflare:test" and the migrations (test/binding-free.ts):
// a file that reaches the test module in any way, itself or through a helper, however the import is
// written, must not be on it, or its bindings would meet a database without tables.
import { describe, expect, it } from "vitest";
import { bindingFreeTests } from "../binding-free";

// Node's modules, loaded untyped: the project's type-check sees the Workers types, not Node's.
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const [fs, os, path] = await Promise.all(["node:fs", "node:os", "node:path"].map(node));

/** A test tree of the given files in a fresh folder; the names bindingFreeTests returns for it, relative to it. */
function freeIn(tree: Record<string, string>): string[] {
  const folder: string = fs.mkdtempSync(path.join(os.tmpdir(), "binding-free-"));
  try {
    for (const [name, text] of Object.entries(tree)) {
      fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      fs.writeFileSync(path.join(folder, name), text);
    }
    return bindingFreeTests(folder).map((file) => path.relative(folder, file));
  } finally {
    fs.rmSync(folder, { recursive: true });
  }
}

describe("binding-free test files", () => {
  it("leaves out every way of reaching cloudflare:test or cloudflare:workers: named, namespace, bare, dynamic, re-exported, over lines, through helpers", () => {
    const free = freeIn({
      "named.test.ts": 'import { env } from "cloudflare:test";\n',
      "type-only.test.ts": 'import type { D1Migration } from "cloudflare:test";\n',
      "namespace.test.ts": 'import * as cf from "cloudflare:test";\n',
      "bare.test.ts": 'import "cloudflare:test";\n',
      "dynamic.test.ts": 'it("x", async () => { const { env } = await import("cloudflare:test"); });\n',
      // the Workers runtime's own module hands out the same bindings (env) and the Worker itself (exports)
      "workers-env.test.ts": 'import { env } from "cloudflare:workers";\n',
      "workers-exports.test.ts": 'import { exports } from "cloudflare:workers";\n',
      "helpers/runtime.ts": 'export { env } from "cloudflare:workers";\n',
      "through-runtime-helper.test.ts": 'import { env } from "./helpers/runtime";\n',
      "over-lines.test.ts": 'import {\n  env,\n  SELF,\n} from "cloudflare:test";\n',
      "helpers/seed.ts": 'export { env } from "cloudflare:test";\n',
      "helpers/index.ts": 'export * from "./seed";\n',
      "through-helper.test.ts": 'import { env } from "./helpers/seed";\n',
      "through-folder.test.ts": 'import { env } from "./helpers";\n',
      "deep/two-steps.test.ts": 'import { seed } from "../helpers/index";\n',
      // a helper in a cycle with one that imports the test module reaches it, whichever file is read first
      "a-cycle.test.ts": 'import "./cycle/one";\n',
      "cycle/one.ts": 'import "./two";\nimport "cloudflare:test";\n',
      "cycle/two.ts": 'import "./one";\n',
      "b-cycle.test.ts": 'import "./cycle/two";\n',
      "pure.test.ts":
        'import { describe } from "vitest";\nimport { csv } from "./lib/csv";\n// a comment naming "cloudflare:test" imports nothing\n',
      "lib/csv.ts": 'import { z } from "zod";\nexport const csv = 1;\n',
      "lib/not-a-test.ts": 'import "cloudflare:test";\n',
    });
    expect(free).toEqual(["pure.test.ts"]);
  });

  it("lists this repository's pure files and leaves out those that use bindings", () => {
    const free = bindingFreeTests("test").map((file) => path.relative(path.resolve("."), file));
    expect(free).toContain("test/lib/csv.test.ts"); // imports only src/lib
    expect(free).toContain("test/session/state-machine.test.ts");
    expect(free).not.toContain("test/routes/console-page.test.ts"); // through test/helpers/http.ts
    expect(free).not.toContain("test/attestations/consent-attacks.test.ts"); // imports env itself
  });
});
