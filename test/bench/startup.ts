// Cold start: the CPU time of a Worker's startup phase (compiling and evaluating the script: what Cloudflare
// runs for a fresh isolate before its first request), measured in local workerd as `wrangler check startup`
// does it, with two differences that make the figure usable:
// - the bundle is built with the given configuration (`wrangler deploy --dry-run --config C --outfile B`):
//   `wrangler check startup --config C` builds the wrangler.toml of the working directory whatever C says
//   (wrangler 4.86.0 passes no --config to the deploy it runs), so until 24 Nov 2026 the "floor" figure
//   was the service's own;
// - the profiler samples every 100 µs (check startup's default is about 1 ms: some 25 samples for a
//   Worker), and the startup runs several times in fresh workerd processes; the figure is the median.
// The sampled CPU time excludes the profiler's idle samples. Local CPU is not Cloudflare's: compare the
// service's figure with the floor's from the same run.
import { readdirSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDevtools } from "./devtools";
import { median } from "./figures";
import { childProcesses, readProc } from "./process-cpu";
import { runWrangler } from "./wrangler";

/** What this file uses of Miniflare. */
type MiniflareInstance = {
  ready: Promise<unknown>;
  getInspectorURL(): Promise<URL>;
  dispatchFetch(url: string): Promise<Response>;
  dispose(): Promise<void>;
};

// Wrangler's own Miniflare (and so its workerd): the one `wrangler dev` and `wrangler check startup` run,
// not the newer one the test pool brings.
export const { Miniflare } = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"))("miniflare") as {
  Miniflare: new (options: Record<string, unknown>) => MiniflareInstance;
};

type CallFrame = { functionName: string; url: string; lineNumber: number };
export type StartupProfile = {
  nodes: { id: number; callFrame: CallFrame; positionTicks?: { line: number; ticks: number }[] }[];
  samples: number[];
  timeDeltas: number[];
};
export type Bundle = {
  compatibilityDate: string;
  compatibilityFlags: string[];
  mainModule: string;
  modules: { type: "ESModule" | "Text" | "Data" | "CompiledWasm"; path: string; contents: Uint8Array | string }[];
};

const SAMPLING_INTERVAL_US = 100;

const MODULE_TYPES: Record<string, Bundle["modules"][number]["type"]> = {
  "application/javascript+module": "ESModule",
  "text/plain": "Text",
  "application/octet-stream": "Data",
  "application/wasm": "CompiledWasm",
};

/** The Worker as `wrangler deploy` uploads it: the multipart upload form written by --outfile. */
export async function buildWorker(config: string | undefined, minify: boolean): Promise<Bundle> {
  const dir = await mkdtemp(join(tmpdir(), "age-startup-"));
  try {
    const outfile = join(dir, "worker.bundle");
    await runWrangler([
      "deploy",
      "--dry-run",
      `--outfile=${outfile}`,
      ...(config ? ["--config", config] : []),
      ...(minify ? [] : ["--minify=false"]),
    ]);
    const bytes = await readFile(outfile);
    const boundary = bytes.subarray(2, bytes.indexOf(10)).toString().trim();
    const form = await new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    }).formData();
    const metadata = JSON.parse(String(form.get("metadata"))) as {
      main_module: string;
      compatibility_date: string;
      compatibility_flags?: string[];
    };
    const modules: Bundle["modules"] = [];
    for (const [path, entry] of form.entries()) {
      if (typeof entry === "string" || entry.type === "application/source-map") continue;
      modules.push({ type: MODULE_TYPES[entry.type] ?? "Text", path, contents: new Uint8Array(await entry.arrayBuffer()) });
    }
    return {
      compatibilityDate: metadata.compatibility_date,
      compatibilityFlags: metadata.compatibility_flags ?? [],
      mainModule: metadata.main_module,
      modules,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A fresh workerd holding the bundle behind a wrapper that imports the script on its first request, as
 * `wrangler check startup` does; with `inspectorPort: 0` for the profiler.
 */
const freshWorkerd = (bundle: Bundle, options: { inspectorPort?: number } = {}) =>
  new Miniflare({
    name: "startup",
    compatibilityDate: bundle.compatibilityDate,
    compatibilityFlags: bundle.compatibilityFlags,
    modulesRoot: "/",
    modules: [
      {
        type: "ESModule",
        path: `startup-${crypto.randomUUID()}.mjs`,
        contents: `export default { async fetch() { await import("${bundle.mainModule}"); return new Response("ok"); } };`,
      },
      ...bundle.modules,
    ],
    ...options,
  });

/** One fresh workerd: the script imported under the profiler, as `wrangler check startup` does. */
async function profileOnce(bundle: Bundle): Promise<StartupProfile> {
  const mf = freshWorkerd(bundle, { inspectorPort: 0 });
  try {
    await mf.ready;
    const { send, close } = await openDevtools(new URL("/core:user:startup", (await mf.getInspectorURL()).href).href);
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
    await send("Profiler.start");
    await (await mf.dispatchFetch("https://startup.invalid/")).text();
    const { profile } = (await send("Profiler.stop")) as { profile: StartupProfile };
    close();
    return profile;
  } finally {
    await mf.dispose();
  }
}

/** The one workerd process this Node process has started (Miniflare's child; Linux's /proc). */
function ownWorkerd(): number {
  const children = childProcesses(process.pid).filter(({ pid }) => readProc(`/proc/${pid}/cmdline`).includes("workerd"));
  if (children.length !== 1) throw new Error(`expected one workerd child of ${process.pid}, found ${children.length}`);
  return children[0]!.pid;
}

/** CPU time of every thread of a process so far, in ms: the scheduler's nanoseconds (/proc/<pid>/task/<tid>/schedstat). */
function threadsCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readProc(`/proc/${pid}/task/${tid}/schedstat`).split(" ")[0] || 0);
  return ns / 1e6;
}

/**
 * One fresh workerd without the profiler, its CPU read from the scheduler (every thread, to the
 * nanosecond): while it loads the Worker (from its start to Miniflare's ready, which includes reading
 * the script from its configuration) and while the first request imports the script.
 */
async function workerdCpuOnce(bundle: Bundle): Promise<{ loadMs: number; importMs: number }> {
  const mf = freshWorkerd(bundle);
  try {
    await mf.ready;
    const pid = ownWorkerd();
    const loadMs = threadsCpuMs(pid);
    await (await mf.dispatchFetch("https://startup.invalid/")).text();
    return { loadMs, importMs: threadsCpuMs(pid) - loadMs };
  } finally {
    await mf.dispose();
  }
}

/** CPU time of a profile: every sample but the idle ones. */
export function busyMs(profile: StartupProfile): number {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id));
  let micros = 0;
  profile.samples.forEach((id, i) => {
    if (!idle.has(id)) micros += profile.timeDeltas[i] ?? 0;
  });
  return micros / 1000;
}

export type Startup = { cpuMs: number; runsMs: number[]; profiles: StartupProfile[]; script?: string };
/** workerd's own CPU, medians of the rounds: loading the Worker, and importing its script on the first request. */
export type WorkerdStartup = { loadMs: number; importMs: number; loadRunsMs: number[]; importRunsMs: number[] };

/**
 * The startup CPU of the Worker of `config` (wrangler.toml when omitted): the median over `runs` fresh
 * workerd processes. `minify: false` keeps esbuild's `// path` module markers, for startup-by-dependency.ts;
 * the script's text is then returned too.
 */
export async function measureStartup(config?: string, options: { runs?: number; minify?: boolean } = {}): Promise<Startup> {
  const bundle = await buildWorker(config, options.minify ?? true);
  const profiles: StartupProfile[] = [];
  for (let run = 0; run < (options.runs ?? 5); run++) profiles.push(await profileOnce(bundle));
  const runsMs = profiles.map(busyMs);
  const main = bundle.modules.find((module) => module.path === bundle.mainModule);
  const script = options.minify === false && main ? new TextDecoder().decode(main.contents as Uint8Array) : undefined;
  return { cpuMs: median(runsMs), runsMs, profiles, script };
}

/**
 * The start-up CPU of several Workers (minified, as deployed), measured in turn, so that the service and
 * the floor see the same moments of the machine: measured one after the other, 5 runs each, the floor's
 * median read from 0.0 to 2.6 ms and the service's from 14.6 to 16.6 in three runs of one morning; in turn
 * over 15 rounds, 3.2 and 13.7 (docs/performance.md, 27 Nov 2026). Each round profiles one fresh process
 * of each (the figure `wrangler check startup` gives) and reads workerd's CPU in one more of each, without
 * the profiler (`workerd`): the profiler's samples are too few for a small Worker on a slow machine (the
 * floor read 0.4 ms after the bench's load, 3.2 to 3.9 on a quiet machine), the scheduler's count is not.
 */
export async function measureStartupsInTurn(
  configs: (string | undefined)[],
  runs = 15,
): Promise<(Startup & { workerd: WorkerdStartup })[]> {
  const bundles = await Promise.all(configs.map((config) => buildWorker(config, true)));
  const profiles: StartupProfile[][] = bundles.map(() => []);
  const cpu: { loadMs: number; importMs: number }[][] = bundles.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (const [i, bundle] of bundles.entries()) {
      profiles[i]!.push(await profileOnce(bundle));
      cpu[i]!.push(await workerdCpuOnce(bundle));
    }
  }
  return bundles.map((_, i) => {
    const runsMs = profiles[i]!.map(busyMs);
    const loadRunsMs = cpu[i]!.map((c) => c.loadMs);
    const importRunsMs = cpu[i]!.map((c) => c.importMs);
    return {
      cpuMs: median(runsMs),
      runsMs,
      profiles: profiles[i]!,
      workerd: { loadMs: median(loadRunsMs), importMs: median(importRunsMs), loadRunsMs, importRunsMs },
    };
  });
}
