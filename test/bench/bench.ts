// `npm run bench [-- --base-url URL] [--connections 10] [--duration 10] [--callback-sessions 50]`:
// measures what a merchant pays per call, against its own throw-away `wrangler dev` unless --base-url is
// given. Every figure is also shown as a ratio to GET /api/health in the same run, because machines are
// noisy. Prints a table and writes test/bench/results.json.
import { writeFile } from "node:fs/promises";
import { cpus, platform } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { apiClient, expectStatus } from "../tools/api-client";
import { startCallbackReceiver } from "../tools/callback-receiver";
import { measureBundle } from "./bundle-size";
import { measureCallbackLatency } from "./callback-latency";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { prepare } from "./prepare";
import { measureFlow, measureHealth, measureOpen, measurePoll, type Load, type Measured } from "./scenarios";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    connections: { type: "string", default: "10" },
    duration: { type: "string", default: "10" },
    "callback-sessions": { type: "string", default: "50" },
    "callback-interval-ms": { type: "string", default: "200" },
    "skip-bundle": { type: "boolean", default: false },
  },
});
const load: Load = { connections: Number(values.connections), duration: Number(values.duration) };
const callbackSessions = Math.max(50, Number(values["callback-sessions"]));
const callbackIntervalMs = Number(values["callback-interval-ms"]);

// Targets of issue 13.
const TARGETS = { pollThroughput: 0.25, openThroughput: 0.12, tailToMedian: 5, callbackP50Ms: 1500, bundleGzipKiB: 120 };

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
const kib = (bytes: number) => bytes / 1024;

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")).join("\n");
}

let server: DevServer | undefined;
try {
  const log = (text: string) => console.log(text);
  if (values["base-url"]) log(`Benchmarking ${values["base-url"]}`);
  else {
    log("Starting a throw-away wrangler dev (own ports, own local state)…");
    server = await startDevServer({ name: "bench" });
    log(`Benchmarking ${server.baseUrl}`);
  }
  const baseUrl = (values["base-url"] ?? server!.baseUrl).replace(/\/$/, "");
  log(`autocannon: ${load.connections} connections, ${load.duration} s per scenario\n`);

  const fixtures = await prepare(baseUrl);
  // A receiver that accepts the callbacks of the sessions the load resolves, so none of them is retried.
  const sink = await startCallbackReceiver({ secret: fixtures.signingSecret });
  const callbackUrl = `${sink.url}/callbacks`;
  const api = apiClient(baseUrl);
  const polled = await api("POST", "/api/age-verification/session", { apiKey: fixtures.apiKey, body: { age_required: 18, callback_url: callbackUrl } });
  expectStatus(polled, 201);

  // Warm the isolate, the key's lastUsedAt stamp and the connection pool before anything is recorded.
  await measureHealth(baseUrl, { connections: load.connections, duration: 2 });
  await measurePoll(baseUrl, { connections: load.connections, duration: 2 }, fixtures, polled.body.data.session_id);

  const scenarios: Measured[] = [];
  const step = async (name: string, run: () => Promise<Measured>) => {
    log(`… ${name}`);
    scenarios.push(await run());
  };
  await step("health", () => measureHealth(baseUrl, load));
  await step("poll", () => measurePoll(baseUrl, load, fixtures, polled.body.data.session_id));
  await step("open", () => measureOpen(baseUrl, load, fixtures, callbackUrl));
  // Before the flow, whose thousands of callbacks would otherwise queue ahead of these.
  log(`… callback latency over ${callbackSessions} sessions, one completion every ${callbackIntervalMs} ms`);
  const callbacks = await measureCallbackLatency(baseUrl, fixtures, callbackSessions, callbackIntervalMs);
  await step("open+complete+poll", () => measureFlow(baseUrl, load, fixtures, callbackUrl));
  await sink.close();

  let bundle: Awaited<ReturnType<typeof measureBundle>> | undefined;
  if (!values["skip-bundle"]) {
    log("… bundle size (wrangler deploy --dry-run --minify)");
    bundle = await measureBundle();
  }

  const health = scenarios[0]!;
  const byName = (name: string) => scenarios.find((s) => s.name === name)!;
  log("");
  log(
    table([
      ["scenario", "req/s", "p50 ms", "p99 ms", "errors", "req/s ÷ health", "p50 ÷ health", "p99 ÷ health", "p99 ÷ p50"],
      ...scenarios.map((s) => [
        s.name,
        fmt(s.rps, 0),
        fmt(s.p50, 0),
        fmt(s.p99, 0),
        String(s.errors),
        fmt(ratio(s.rps, health.rps), 3),
        fmt(ratio(s.p50, health.p50), 1),
        fmt(ratio(s.p99, health.p99), 1),
        fmt(ratio(s.p99, s.p50), 1),
      ]),
    ]),
  );
  const flow = byName("open+complete+poll");
  log(`(open+complete+poll: ${fmt(flow.rps / 3, 0)} whole flows per second, three requests each)`);
  log(
    `callback latency: p50 ${fmt(callbacks.p50, 0)} ms, p95 ${fmt(callbacks.p95, 0)} ms, max ${fmt(callbacks.max, 0)} ms ` +
      `(${callbacks.received}/${callbacks.sessions} received, ${callbacks.unverified} unverified; p50 ÷ health p50 ${fmt(ratio(callbacks.p50, health.p50), 0)})`,
  );
  if (bundle) log(`bundle: ${fmt(kib(bundle.rawBytes))} KiB minified, ${fmt(kib(bundle.gzipBytes))} KiB gzip (${bundle.files.join(", ")})`);

  const poll = byName("poll");
  const open = byName("open");
  const targets = [
    { target: `poll req/s ≥ ${TARGETS.pollThroughput} × health`, value: fmt(ratio(poll.rps, health.rps), 3), met: ratio(poll.rps, health.rps) >= TARGETS.pollThroughput },
    { target: `open req/s ≥ ${TARGETS.openThroughput} × health`, value: fmt(ratio(open.rps, health.rps), 3), met: ratio(open.rps, health.rps) >= TARGETS.openThroughput },
    { target: `poll p99 < ${TARGETS.tailToMedian} × p50`, value: fmt(ratio(poll.p99, poll.p50), 1), met: ratio(poll.p99, poll.p50) < TARGETS.tailToMedian },
    { target: `open p99 < ${TARGETS.tailToMedian} × p50`, value: fmt(ratio(open.p99, open.p50), 1), met: ratio(open.p99, open.p50) < TARGETS.tailToMedian },
    { target: "no errors", value: String(scenarios.reduce((n, s) => n + s.errors, 0) + callbacks.unverified + (callbacks.sessions - callbacks.received)), met: scenarios.every((s) => s.errors === 0) && callbacks.unverified === 0 && callbacks.received === callbacks.sessions },
    { target: `callback p50 < ${TARGETS.callbackP50Ms} ms`, value: `${fmt(callbacks.p50, 0)} ms`, met: callbacks.p50 < TARGETS.callbackP50Ms },
    ...(bundle ? [{ target: `bundle < ${TARGETS.bundleGzipKiB} KiB gzip`, value: `${fmt(kib(bundle.gzipBytes))} KiB`, met: kib(bundle.gzipBytes) < TARGETS.bundleGzipKiB }] : []),
  ];
  log("");
  log(table([["target", "measured", ""], ...targets.map((t) => [t.target, t.value, t.met ? "met" : "MISSED"])]));

  const results = {
    measuredAt: new Date().toISOString(),
    command: `npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`,
    baseUrl: values["base-url"] ?? "own wrangler dev (development config)",
    machine: { platform: platform(), cpu: cpus()[0]?.model ?? "unknown", cpus: cpus().length },
    load,
    scenarios: scenarios.map((s) => ({
      ...s,
      vsHealth: { rps: ratio(s.rps, health.rps), p50: ratio(s.p50, health.p50), p99: ratio(s.p99, health.p99) },
    })),
    callbackLatencyMs: callbacks,
    bundle: bundle ? { files: bundle.files, rawBytes: bundle.rawBytes, gzipBytes: bundle.gzipBytes } : null,
    targets,
  };
  const file = join(process.cwd(), "test", "bench", "results.json");
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nwritten: test/bench/results.json`);
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await server?.stop();
}
