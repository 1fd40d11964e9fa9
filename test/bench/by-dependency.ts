// `npm run bench:deps [-- --runs 7]`: what each dependency costs the Worker (docs/performance.md), in the two figures a
// fresh isolate pays for: its bytes in the script and its CPU at start-up.
// - Size: esbuild's metafile of the script as deployed (`wrangler deploy --dry-run --metafile`, minified),
//   each input's bytes in the output, summed per package (node_modules/<name>) and per folder of src/.
//   gzip does not add up per part, so the share of the minified bytes is the figure; the script's own
//   gzip total is the bench's (bundle-size.ts).
// - Start-up: the unminified script (esbuild's `// path` markers name each line's module) imported under
//   workerd's profiler in fresh processes (startup.ts), every sample charged to the module of its innermost
//   frame, averaged over the runs; compiling the script shows as "(program)", the collector as "(gc)".
// Prints both tables (the figures docs/performance.md quotes).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { modulesByLine, table } from "./figures";
import { busyMs, measureStartup, type StartupProfile } from "./startup";
import { runWrangler } from "./wrangler";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Math.max(1, Number(values.runs));

/** A module path as its group: the package under node_modules, or src/<folder>. */
export function dependencyOf(path: string): string {
  const pkg = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  const ours = /(?:^|\/)src\/([^/]+)(\/)?/.exec(path);
  if (ours) return ours[2] ? `src/${ours[1]}/` : `src/${ours[1]}`;
  return path;
}

async function sizeByDependency(): Promise<Map<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), "age-deps-"));
  try {
    const metafile = join(dir, "meta.json");
    await runWrangler(["deploy", "--dry-run", "--outdir", dir, "--metafile", metafile]);
    const meta = JSON.parse(new TextDecoder().decode(await readFile(metafile))) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const bytes = new Map<string, number>();
    for (const [output, { inputs }] of Object.entries(meta.outputs)) {
      if (output.endsWith(".map")) continue;
      for (const [input, { bytesInOutput }] of Object.entries(inputs))
        bytes.set(dependencyOf(input), (bytes.get(dependencyOf(input)) ?? 0) + bytesInOutput);
    }
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Start-up CPU per dependency, in ms per start, averaged over the profiles. The script's top level (every
 * module's own statements, which esbuild concatenates into one function) is one frame; its samples are
 * split by the lines V8 saw them on (positionTicks), and what V8 gave no line stays "(top level)".
 */
function startupByDependency(profiles: StartupProfile[], script: string): Map<string, number> {
  const owner = modulesByLine(script);
  const micros = new Map<string, number>();
  const add = (key: string, us: number) => micros.set(key, (micros.get(key) ?? 0) + us);
  for (const profile of profiles) {
    const selfTime = new Map<number, number>();
    const sampleCount = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
      sampleCount.set(id, (sampleCount.get(id) ?? 0) + 1);
    });
    for (const node of profile.nodes) {
      const us = selfTime.get(node.id) ?? 0;
      const frame = node.callFrame;
      if (us === 0 || frame.functionName === "(idle)") continue;
      if (frame.functionName === "(garbage collector)") add("(gc)", us);
      else if (frame.functionName === "(program)") add("(program: compiling)", us);
      else if (!frame.url.endsWith("index.js")) add("(runtime)", us);
      else if (frame.lineNumber >= 0) add(dependencyOf(owner[frame.lineNumber] ?? "?"), us);
      else {
        const ticks = node.positionTicks ?? [];
        const total = ticks.reduce((sum, t) => sum + t.ticks, 0);
        // positionTicks count only some of the node's samples: those are split by line, the rest stay whole.
        const sampled = sampleCount.get(node.id)!;
        for (const { line, ticks: n } of ticks) add(dependencyOf(owner[line - 1] ?? "?"), (us * n) / sampled);
        add("(top level)", (us * (sampled - total)) / sampled);
      }
    }
  }
  return new Map([...micros].map(([key, total]) => [key, total / profiles.length / 1000]));
}

console.log(`Size: wrangler deploy --dry-run --metafile (minified, as deployed)…`);
const sizes = await sizeByDependency();
console.log(`Start-up: the unminified script under workerd's profiler, ${runs} fresh processes…`);
const startup = await measureStartup(undefined, { runs, minify: false });
const cpu = startupByDependency(startup.profiles, startup.script ?? "");
const floor = await measureStartup(join("test", "bench", "floor", "wrangler.toml"), { runs });

const totalBytes = [...sizes.values()].reduce((a, b) => a + b, 0);
const totalCpu = startup.profiles.map(busyMs).reduce((a, b) => a + b, 0) / startup.profiles.length;
const keys = [...new Set([...sizes.keys(), ...cpu.keys()])].sort(
  (a, b) => (cpu.get(b) ?? 0) - (cpu.get(a) ?? 0) || (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0),
);
console.log("");
console.log(
  table([
    ["dependency", "minified KiB", "share", "start-up ms", "share"],
    ...keys.map((key) => [
      key,
      sizes.has(key) ? (sizes.get(key)! / 1024).toFixed(1) : "-",
      sizes.has(key) ? `${((100 * sizes.get(key)!) / totalBytes).toFixed(1)} %` : "-",
      cpu.has(key) ? cpu.get(key)!.toFixed(2) : "-",
      cpu.has(key) ? `${((100 * cpu.get(key)!) / totalCpu).toFixed(1)} %` : "-",
    ]),
    ["total", (totalBytes / 1024).toFixed(1), "", totalCpu.toFixed(2), ""],
  ]),
);
console.log(
  `\nstart-up CPU, median of ${runs} (minified, as deployed, is the bench's figure): unminified ${startup.cpuMs.toFixed(1)} ms (runs ${startup.runsMs.map((ms) => ms.toFixed(1)).join(" ")}); the floor ${floor.cpuMs.toFixed(1)} ms`,
);
