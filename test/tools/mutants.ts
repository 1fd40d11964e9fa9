// `npm run mutants`: measures whether the tests catch the breaks they promise to catch. StrykerJS cannot
// drive this suite (its vitest runner forces Vitest's `threads` pool, and our tests run inside workerd
// through the Cloudflare pool), so this runner applies hand-written mutations from
// test/mutants/catalogue.ts one at a time to a scratch copy of the repository, runs only the test files
// each names, and reports each mutation that no test kills. The working tree is never written to.
//
//   npm run mutants                       # the whole catalogue
//   npm run mutants -- --only id1,id2     # some entries
//   npm run mutants -- --keep             # keep the scratch copy (its path is printed) to debug a survivor
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { catalogue } from "../mutants/catalogue";
import { applyMutation, entryProblems, projectOf, type Mutation } from "../mutants/mutation";

/** One mutation's run: its few test files. */
const RUN_TIMEOUT_MS = 300_000;
/** The baseline runs every named file at once (the whole catalogue: most of the suite, ten minutes or more on a shared machine). */
const BASELINE_TIMEOUT_MS = 3_600_000;
const root = process.cwd();
const { values } = parseArgs({ options: { only: { type: "string" }, keep: { type: "boolean" } } });

function selected(): Mutation[] {
  if (!values.only) return catalogue;
  const ids = values.only
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !catalogue.some((m) => m.id === id));
  if (unknown.length > 0) {
    console.error(`unknown mutation ids: ${unknown.join(", ")}`);
    process.exit(2);
  }
  return catalogue.filter((m) => ids.includes(m.id));
}

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/** Entries that cannot be applied as written; each is a failure of the run, never skipped quietly. */
function staleEntries(mutations: Mutation[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const m of catalogue) {
    if (seen.has(m.id)) lines.push(`${m.id}: the id is used twice`);
    seen.add(m.id);
  }
  for (const m of mutations) {
    for (const problem of entryProblems(m, readOrNull(join(root, m.file)), (test) => existsSync(join(root, test)))) {
      lines.push(`${m.id}: ${problem}`);
    }
  }
  return lines;
}

/** A scratch copy of the tracked (and new, not ignored) files, sharing node_modules by a symlink. */
function scratchCopy(): string {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const dir = mkdtempSync(join(tmpdir(), "mutants-"));
  for (const file of listed.stdout.split("\n").filter(Boolean)) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(root, file), join(dir, file));
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** Runs the test files with vitest in `dir`, one invocation per project; the first failing one decides. */
function runTests(dir: string, tests: string[], timeout = RUN_TIMEOUT_MS): { passed: boolean; timedOut: boolean; output: string } {
  const byProject = new Map<string, string[]>();
  for (const test of tests) byProject.set(projectOf(test), [...(byProject.get(projectOf(test)) ?? []), test]);
  for (const [project, files] of byProject) {
    const run = spawnSync(join(dir, "node_modules/.bin/vitest"), ["run", "--project", project, "--bail", "1", ...files], {
      cwd: dir,
      encoding: "utf8",
      timeout,
      maxBuffer: 64 << 20,
      env: { ...process.env, CI: "1", FORCE_COLOR: "0" },
    });
    if (run.status !== 0) return { passed: false, timedOut: run.signal !== null, output: `${run.stdout}\n${run.stderr}` };
  }
  return { passed: true, timedOut: false, output: "" };
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(0);

function main() {
  const started = Date.now();
  const mutations = selected();
  const stale = staleEntries(mutations);
  if (stale.length > 0) {
    console.error(`The catalogue has ${stale.length} entries that cannot be applied (update them where the code moved):`);
    for (const line of stale) console.error(`  ${line}`);
    process.exit(1);
  }

  const dir = scratchCopy();
  console.log(`scratch copy: ${dir}`);
  try {
    // The named tests must pass unmutated, or a failure under a mutation proves nothing.
    const allTests = [...new Set(mutations.flatMap((m) => m.tests))].sort();
    const baseline = runTests(dir, allTests, BASELINE_TIMEOUT_MS);
    if (!baseline.passed) {
      const why = baseline.timedOut
        ? `did not finish within ${BASELINE_TIMEOUT_MS / 60_000} minutes`
        : "fail without any mutation; fix them first";
      console.error(`The named test files ${why}.\n${baseline.output.slice(-4000)}`);
      process.exitCode = 1;
      return;
    }
    console.log(`baseline: ${allTests.length} test files pass unmutated (${seconds(started)} s)`);

    const survivors: Mutation[] = [];
    for (const [index, mutation] of mutations.entries()) {
      const path = join(dir, mutation.file);
      const original = readFileSync(path, "utf8");
      const at = Date.now();
      writeFileSync(path, applyMutation(original, mutation));
      let result: ReturnType<typeof runTests>;
      try {
        result = runTests(dir, mutation.tests);
      } finally {
        writeFileSync(path, original);
      }
      const verdict = result.passed ? "SURVIVED" : result.timedOut ? "killed (timeout)" : "killed";
      console.log(`[${index + 1}/${mutations.length}] ${mutation.id}: ${verdict} (${seconds(at)} s)`);
      if (result.passed) survivors.push(mutation);
    }

    console.log(`\n${mutations.length - survivors.length} of ${mutations.length} mutations killed in ${seconds(started)} s`);
    if (survivors.length > 0) {
      console.error(`\n${survivors.length} survived: a test is missing for each of these breaks.`);
      for (const m of survivors) console.error(`  ${m.id} (${m.file}; ${m.tests.join(", ")}): ${m.why}`);
      process.exitCode = 1;
    }
  } finally {
    if (values.keep) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main();
