// `npm run bench:profile [-- --duration 8] [--only poll,open] [--floor]`: where a request's CPU time goes (--floor: the
// bench's floor Worker's, to set the service's busy CPU per request beside it). Starts the service's own
// throw-away `wrangler dev`, drives health, poll, open and the flow (open + complete + poll) with autocannon while workerd's sampling CPU
// profiler runs (the DevTools protocol through wrangler's inspector), and attributes every sample to the
// source module of its innermost frame: esbuild's unminified dev bundle marks each module with a
// `// path` comment, so a frame's line number names its file. Prints, per scenario, the share of busy
// CPU per module group and the inclusive share of each middleware (docs/performance.md).
// Needs Node's WebSocket: the npm script runs tsx with --experimental-websocket.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { apiClient, expectStatus } from "../tools/api-client";
import { openDevtools } from "./devtools";
import { modulesByLine } from "./figures";
import { prepare, seedFloor } from "./prepare";
import { measureFlow, measureHealth, measureOpen, measurePoll, type Load } from "./scenarios";

type Frame = { functionName: string; url: string; lineNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[]; positionTicks?: { line: number; ticks: number }[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    connections: { type: "string", default: "10" },
    only: { type: "string", default: "health,poll,open,open+complete+poll" },
    floor: { type: "boolean", default: false },
  },
});
const only = new Set((values.only ?? "").split(","));
const load: Load = { connections: Number(values.connections), duration: Number(values.duration) };

/** A DevTools session with the Worker's isolate (not the Durable Object's, not the proxy's). */
async function devtools(inspectorPort: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
  }[];
  const target = targets.find((t) => !/durable|proxy/i.test(t.title ?? "")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  // wrangler's inspector proxy refuses a client that sends a User-Agent without an Origin.
  return openDevtools(target.webSocketDebuggerUrl, { origin: "http://localhost" });
}

/**
 * The bundle wrangler dev runs: its lines, and the module each line belongs to (from esbuild's `// path`
 * markers). The profile names the script `index.js`; wrangler dev keeps it in a dev- folder under
 * .wrangler/tmp while it runs.
 */
async function devBundle(): Promise<{ lines: string[]; moduleOf: (line: number) => string }> {
  let script = "";
  const tmp = join(".wrangler", "tmp");
  for (const dir of (await readdir(tmp).catch(() => [])).filter((name) => name.startsWith("dev-"))) {
    const text = await readFile(join(tmp, dir, "index.js"))
      .then((bytes) => new TextDecoder().decode(bytes))
      .catch(() => "");
    if (text) script = text;
  }
  if (!script) return { lines: [], moduleOf: () => "(unknown)" };
  const owner = modulesByLine(script);
  return { lines: script.split("\n"), moduleOf: (line) => owner[line] ?? "(bundle)" };
}

function group(module: string): string {
  const m = /node_modules\/(@[^/]+\/[^/]+|[^/]+)/.exec(module);
  if (m) return m[1]!;
  return module.replace(/^.*?src\//, "src/");
}

async function profileScenario(server: DevServer, name: string, drive: () => Promise<{ requests: number }>) {
  if (!only.has(name)) return;
  const session = await devtools(server.inspectorPort);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 100 });
  await session.send("Profiler.start");
  const { requests } = await drive();
  const { profile } = (await session.send("Profiler.stop")) as { profile: Profile };
  session.close();

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // The Worker's bundle: the script with the most frames that is not the runtime's own.
  const frames = new Map<string, number>();
  for (const node of profile.nodes)
    if (/\.js$/.test(node.callFrame.url) && !/^(cloudflare|node)-internal|^__mf/.test(node.callFrame.url))
      frames.set(node.callFrame.url, (frames.get(node.callFrame.url) ?? 0) + 1);
  const bundle = [...frames].sort((a, b) => b[1] - a[1])[0]?.[0];
  const { lines, moduleOf } = bundle ? await devBundle() : { lines: [], moduleOf: () => "(unknown)" };
  /** A frame's file, shortened to its package path or src/ path. */
  const fileOf = (frame: Frame) =>
    moduleOf(frame.lineNumber)
      .replace(/^.*?node_modules\//, "")
      .replace(/^.*?src\//, "src/");
  const functionOf = (frame: Frame) => `${frame.functionName || "(anonymous)"} ${fileOf(frame)}:${frame.lineNumber + 1}`;

  const self = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id)!;
    if (leaf.callFrame.functionName === "(idle)" || leaf.callFrame.functionName === "(program)") return;
    busy += micros;
    const frame = leaf.callFrame;
    const key =
      frame.url === bundle
        ? group(moduleOf(frame.lineNumber))
        : frame.functionName === "(garbage collector)"
          ? "(gc)"
          : frame.url || `(native) ${frame.functionName}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    if (frame.url === bundle) {
      const file = fileOf(frame);
      selfByFile.set(file, (selfByFile.get(file) ?? 0) + micros);
      const fn = functionOf(frame);
      selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + micros);
    }
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n)!.callFrame;
      if (f.url !== bundle) continue;
      const module = moduleOf(f.lineNumber);
      if (module.includes("src/") && !seen.has(module)) {
        seen.add(module);
        inclusive.set(module, (inclusive.get(module) ?? 0) + micros);
      }
    }
  });
  const pct = (micros: number) => `${((100 * micros) / busy).toFixed(1)}%`.padStart(6);
  // Busy CPU per request: the figure to compare between two versions of the code (shares move with load).
  console.log(
    `\n${name}: ${(busy / 1000).toFixed(0)} ms busy CPU sampled over ${requests} requests: ${(busy / Math.max(requests, 1)).toFixed(0)} µs per request`,
  );
  console.log("  self time by module group:");
  for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 14)) console.log(`  ${pct(micros)}  ${key}`);
  console.log("  self time by file of the bundle:");
  for (const [key, micros] of [...selfByFile].sort((a, b) => b[1] - a[1]).slice(0, 16)) console.log(`  ${pct(micros)}  ${key}`);
  console.log("  self time by function of the bundle (bundle line):");
  const topFunctions = [...selfByFunction].sort((a, b) => b[1] - a[1]).slice(0, 12);
  for (const [key, micros] of topFunctions) console.log(`  ${pct(micros)}  ${key}`);
  // The hottest function's own lines (V8's positionTicks), to see what inside it takes the time.
  const hottest = topFunctions[0];
  if (hottest) {
    const byLine = new Map<number, number>();
    for (const node of profile.nodes) {
      if (node.callFrame.url !== bundle || functionOf(node.callFrame) !== hottest[0]) continue;
      for (const { line, ticks } of node.positionTicks ?? []) byLine.set(line, (byLine.get(line) ?? 0) + ticks);
    }
    console.log(`  its lines by samples (${hottest[0]}):`);
    for (const [line, ticks] of [...byLine].sort((a, b) => b[1] - a[1]).slice(0, 6))
      console.log(`  ${String(ticks).padStart(6)}  ${line}: ${(lines[line - 1] ?? "").trim().slice(0, 110)}`);
  }
  console.log("  inclusive time of our modules (stack contains a frame of the module):");
  for (const [key, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 16))
    console.log(`  ${pct(micros)}  ${key.replace(/^.*?src\//, "src/")}`);
}

let server: DevServer | undefined;
try {
  // Unminified, so that esbuild's module markers name each frame's file.
  server = values.floor
    ? await startDevServer({ name: "profile-floor", config: join("test", "bench", "floor", "wrangler.toml") })
    : await startDevServer({ name: "profile", args: ["--minify=false"] });
  const fixtures = values.floor ? await seedFloor(server.baseUrl) : await prepare(server.baseUrl);
  const opened = await apiClient(server.baseUrl)("POST", "/api/age-verification/session", {
    apiKey: fixtures.apiKey,
    body: { age_required: 18, callback_url: "https://m.example.com/cb" },
  });
  expectStatus(opened, 201);
  const sessionId = opened.body.data.session_id as string;
  await measurePoll(server.baseUrl, { connections: load.connections, duration: 2 }, fixtures, sessionId);
  const running = server;
  await profileScenario(running, "health", () => measureHealth(running.baseUrl, load));
  await profileScenario(running, "poll", () => measurePoll(running.baseUrl, load, fixtures, sessionId));
  await profileScenario(running, "open", () => measureOpen(running.baseUrl, load, fixtures, "https://m.example.com/cb"));
  await profileScenario(running, "open+complete+poll", () => measureFlow(running.baseUrl, load, fixtures, "https://m.example.com/cb"));
} catch (error) {
  console.error(`profile failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
}
