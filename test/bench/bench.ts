// `npm run bench [-- --base-url URL --floor-url URL] [--connections 10] [--duration 4] [--rounds 5]
// [--callback-sessions 50] [--shards 2] [--devtools]`: what a merchant pays per call, measured against a
// bare floor Worker (test/bench/floor: the same D1 and Durable Object calls and nothing else) started
// beside the service on the same machine, both without wrangler dev's DevTools relay (`--devtools` keeps
// it: test/tools/start-worker.mjs says what it costs). The two servers share one core, the load generator
// has the other (test/bench/pin.ts), and each round loads both at the same time with every scenario, so
// that whatever the machine does in those seconds falls on both alike; the figures are the medians over
// the rounds of the per-round ratios. Also reported: each ratio to GET /api/health, p99 ÷ p50, callback
// latency, startup CPU (cold start), the bundle, and for proof-of-age issuance the CPU per attestation
// issued and the wall time of one batch of 30 sent alone (test/bench/attestations.ts). Prints tables and
// writes test/bench/results.json.
// `--shards N` (at most the D1_SHARDS of
// wrangler.toml) registers one merchant on each of the first N D1 shards (docs/operations.md) and measures round r
// with shard (r - 1) mod N's merchant, so the figures cover every shard; the callback latency uses shard 0's.
// `--paced R` also measures health and poll at a fixed R requests a second on both, each round (open loop,
// microsecond timing: test/bench/paced.ts), to tell the service's tail from the machine's. Beside each
// throughput it reports the CPU time each server's processes spent per request (test/bench/process-cpu.ts),
// the figure a busy machine moves least.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { cpus, platform } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { apiClient, expectStatus } from "../tools/api-client";
import { startCallbackReceiver } from "../tools/callback-receiver";
import { measureBundle } from "./bundle-size";
import { measureCallbackLatency } from "./callback-latency";
import { median, table } from "./figures";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { prepare, seedFloor, type Fixtures } from "./prepare";
import { measurePaced, type Paced, type PacedRequest } from "./paced";
import { measureFlow, measureHealth, measureOpen, measurePoll, SESSION_PATH, type Load, type Measured } from "./scenarios";
import { FLOWS_PER_RUN, measureDoubleBlind, tokenPool, type TokenPool } from "./double-blind";
import {
  ATTESTATION_FLOWS_PER_RUN,
  ATTESTATIONS_PER_REQUEST,
  attestationPool,
  measureAttestations,
  measureBatchWallTime,
  type AttestationPool,
} from "./attestations";
import { measureStartupsInTurn } from "./startup";
import { formatByRole, medianByRole, withCpuPerRequest } from "./process-cpu";
import { pinServers } from "./pin";

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    "floor-url": { type: "string" },
    connections: { type: "string", default: "10" },
    duration: { type: "string", default: "4" },
    rounds: { type: "string", default: "5" },
    "callback-sessions": { type: "string", default: "50" },
    "callback-interval-ms": { type: "string", default: "200" },
    "skip-bundle": { type: "boolean", default: false },
    shards: { type: "string", default: "1" },
    paced: { type: "string", default: "0" },
    devtools: { type: "boolean", default: false },
  },
});
const load: Load = { connections: Number(values.connections), duration: Number(values.duration) };
const rounds = Math.max(3, Number(values.rounds));
const callbackSessions = Math.max(50, Number(values["callback-sessions"]));
const callbackIntervalMs = Number(values["callback-interval-ms"]);
const shardCount = Math.max(1, Number(values.shards));
const pacedRate = Math.max(0, Number(values.paced));
const FLOOR_CONFIG = join("test", "bench", "floor", "wrangler.toml");

// Targets of 1.2.0, docs/performance.md (medians of the per-round ratios to the floor): health, poll and open ≥ 0.95 × the
// floor, the flow ≥ 0.9 ×, p99 ≤ 3 × p50, callback p50 ≤ 100 ms, and the script under 150 KiB gzip with
// every 1.2.0 feature in (1.1.0's 0.9 / 0.85, and 1,500 ms and 120 KiB before them; docs/performance.md).
const TARGETS = {
  vsFloor: 0.95,
  flowVsFloor: 0.9,
  tailToMedian: 3,
  callbackP50Ms: 100,
  callbackP95Ms: 500,
  startupOverFloorMs: 10,
  bundleGzipKiB: 150,
};

/** A proof's CPU per request (test/bench/crypto-cpu.ts, run in its own process: it runs the service's domain code). */
type CpuFigure = { label: string; p50Ms: number; p90Ms: number; rounds: number };
function measureProofsCpu(): CpuFigure[] {
  const run = spawnSync("npx", ["tsx", join("test", "bench", "crypto-cpu.ts"), "--json"], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (run.status !== 0) throw new Error(`crypto-cpu.ts failed: ${run.stderr.slice(-500)}`);
  return JSON.parse(run.stdout) as CpuFigure[];
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "-");
const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
const kib = (bytes: number) => bytes / 1024;

/** `processGroup`: the server's processes, whose CPU time the bench reads (none for a --base-url server). */
type Target = {
  baseUrl: string;
  fixtures: Fixtures;
  sessionId: string;
  callbackUrl: string;
  isFloor: boolean;
  processGroup?: number;
  tokens?: TokenPool;
  attestations?: AttestationPool;
};
/** `prepare`: what a run needs made just before it, on each server, outside its measurement. */
type Scenario = { name: string; prepare?: (target: Target) => Promise<void>; run: (target: Target, load: Load) => Promise<Measured> };

const SCENARIOS: Scenario[] = [
  { name: "health", run: (t, l) => measureHealth(t.baseUrl, l) },
  { name: "poll", run: (t, l) => measurePoll(t.baseUrl, l, t.fixtures, t.sessionId) },
  { name: "open", run: (t, l) => measureOpen(t.baseUrl, l, t.fixtures, t.callbackUrl) },
  { name: "open+complete+poll", run: (t, l) => measureFlow(t.baseUrl, l, t.fixtures, t.callbackUrl) },
  // Issuance of a batch of five, then a double-blind session opened and redeemed with a token (test/bench/double-blind.ts).
  { name: "double-blind", run: (t, l) => measureDoubleBlind(t.baseUrl, l, t.fixtures, t.callbackUrl, t.tokens!) },
  // The credential request of proof-of-age issuance, a batch of 30 each (test/bench/attestations.ts).
  {
    name: "attestations",
    prepare: async (t) => {
      t.attestations = await attestationPool(t, ATTESTATION_FLOWS_PER_RUN);
    },
    run: (t, l) => measureAttestations(t.baseUrl, l, t.attestations!),
  },
];

/** The scenarios `--paced` also measures at a fixed rate. */
const PACED: { name: string; request: (target: Target) => PacedRequest }[] = [
  { name: "health", request: (t) => ({ url: `${t.baseUrl}/api/health` }) },
  { name: "poll", request: (t) => ({ url: `${t.baseUrl}${SESSION_PATH}/${t.sessionId}`, headers: { "x-api-key": t.fixtures.apiKey } }) },
];

const servers: DevServer[] = [];
try {
  const log = (text: string) => console.log(text);
  const start = async (name: string, config?: string) => {
    const server = await startDevServer({ name, config, devTools: values.devtools });
    servers.push(server);
    return server;
  };
  log("Starting throw-away wrangler dev servers (own ports, own local state): the service and the floor…");
  const [serviceServer, floorServer] = await Promise.all([
    values["base-url"] ? undefined : start("bench"),
    values["floor-url"] ? undefined : start("floor", FLOOR_CONFIG),
  ]);
  const [baseUrl, floorUrl] = [values["base-url"] ?? serviceServer!.baseUrl, values["floor-url"] ?? floorServer!.baseUrl].map((url) =>
    url.replace(/\/$/, ""),
  ) as [string, string];
  log(`service ${baseUrl}, floor ${floorUrl}`);
  const pinned = pinServers([serviceServer?.processGroup, floorServer?.processGroup].filter((group): group is number => !!group));
  log(`${pinned}; wrangler dev's DevTools relay ${values.devtools ? "on (--devtools)" : "off"}`);
  log(`autocannon: ${load.connections} connections, ${load.duration} s per scenario and server, ${rounds} rounds\n`);

  const fixturesByShard: Fixtures[] = [];
  for (let shard = 0; shard < shardCount; shard++) fixturesByShard.push(await prepare(baseUrl, shardCount > 1 ? shard : undefined));
  const fixtures = fixturesByShard[0]!;
  if (shardCount > 1) log(`merchants on D1 shards ${fixturesByShard.map((f) => f.shard).join(", ")}`);
  const floorFixtures = await seedFloor(floorUrl);
  // A receiver per merchant (each checks its own signing secret) that accepts the callbacks of the
  // sessions the load resolves, so none of them is retried.
  const sinks = await Promise.all(fixturesByShard.map((f) => startCallbackReceiver({ secret: f.signingSecret })));
  const callbackUrl = `${sinks[0]!.url}/callbacks`;
  const openOne = async (url: string, apiKey: string) => {
    const opened = await apiClient(url)("POST", SESSION_PATH, { apiKey, body: { age_required: 18, callback_url: callbackUrl } });
    expectStatus(opened, 201);
    return opened.body.data.session_id as string;
  };
  const services: Target[] = [];
  for (const [i, f] of fixturesByShard.entries()) {
    const url = `${sinks[i]!.url}/callbacks`;
    services.push({
      baseUrl,
      fixtures: f,
      sessionId: await openOne(baseUrl, f.apiKey),
      callbackUrl: url,
      isFloor: false,
      processGroup: serviceServer?.processGroup,
    });
  }
  // One pool of tokens from the service's issuer (the floor verifies with the same development key), each
  // spent once per server: enough for every round's double-blind run on the service (every shard's merchant) and on the floor.
  log(`… issuing ${FLOWS_PER_RUN * rounds * services.length} age tokens for the double-blind scenario`);
  const tokens = await tokenPool(baseUrl, fixtures, FLOWS_PER_RUN * rounds * services.length);
  for (const service of services) service.tokens = tokens;
  const floor: Target = {
    baseUrl: floorUrl,
    fixtures: floorFixtures,
    sessionId: await openOne(floorUrl, floorFixtures.apiKey),
    callbackUrl,
    isFloor: true,
    processGroup: floorServer?.processGroup,
    tokens,
  };

  // Warm both isolates, the key's lastUsedAt stamp and the connection pools before anything is recorded.
  const warm = { connections: load.connections, duration: 2 };
  for (const target of [...services, floor]) for (const scenario of SCENARIOS.slice(0, 2)) await scenario.run(target, warm);

  // Before the rounds, whose thousands of resolved sessions would otherwise queue their callbacks ahead.
  log(`… callback latency over ${callbackSessions} sessions, one completion every ${callbackIntervalMs} ms`);
  const callbacks = await measureCallbackLatency(baseUrl, fixtures, callbackSessions, callbackIntervalMs);

  type WithCpu = Measured & { cpuUs: number; cpuUsByRole: Record<string, number> };
  const measured: { round: number; scenario: string; service: WithCpu; floor: WithCpu }[] = [];
  const paced: { round: number; scenario: string; service: Paced; floor: Paced }[] = [];
  /** One measurement on both servers at the same time, sharing their core: the machine's moments fall on both. */
  const together = async <T>(service: Target, run: (target: Target) => Promise<T>) => {
    const [onService, onFloor] = await Promise.all([run(service), run(floor)]);
    return { service: onService, floor: onFloor };
  };
  /** One measurement on both servers, back to back (the fixed-rate tail, which the other's load would distort); alternating who goes first cancels a drift within a pair. */
  const pair = async <T>(round: number, service: Target, run: (target: Target) => Promise<T>) => {
    const serviceFirst = round % 2 === 1;
    const first = await run(serviceFirst ? service : floor);
    const second = await run(serviceFirst ? floor : service);
    return serviceFirst ? { service: first, floor: second } : { service: second, floor: first };
  };
  for (let round = 1; round <= rounds; round++) {
    const service = services[(round - 1) % services.length]!;
    for (const scenario of SCENARIOS) {
      log(`… round ${round}/${rounds}: ${scenario.name}`);
      if (scenario.prepare) await Promise.all([scenario.prepare(service), scenario.prepare(floor)]);
      const run = (target: Target) => withCpuPerRequest(target.processGroup, () => scenario.run(target, load));
      measured.push({ round, scenario: scenario.name, ...(await together(service, run)) });
    }
    if (pacedRate > 0) {
      for (const { name, request } of PACED) {
        log(`… round ${round}/${rounds}: ${name} at ${pacedRate} req/s`);
        paced.push({
          round,
          scenario: name,
          ...(await pair(round, service, (target) => measurePaced(request(target), pacedRate, load.duration))),
        });
      }
    }
  }
  await Promise.all(sinks.map((sink) => sink.close()));

  // One batch of 30 at a time, nothing else running on either server: the wall time a wallet waits.
  log(
    `… the wall time of one credential request of ${ATTESTATIONS_PER_REQUEST} proofs, sent alone (median of 5 after a warm-up), service then floor`,
  );
  const batchWallTime = { service: await measureBatchWallTime(services[0]!), floor: await measureBatchWallTime(floor) };
  const cpuOfBatches = (measured: { workerCpuMsPerAttestation: number }) => fmt(measured.workerCpuMsPerAttestation, 2);

  log(
    "… startup CPU (test/bench/startup.ts: each Worker built with its own configuration, median of 15 rounds, in each a fresh workerd profiled and one more counted by the scheduler, service and floor in turn)",
  );
  const [serviceStartup, floorStartup] = await measureStartupsInTurn([undefined, FLOOR_CONFIG]);
  const startup = { service: serviceStartup!, floor: floorStartup! };
  log("… CPU per request of the 1.2.0 proofs (a digital-ID presentation verified, an age token redeemed)");
  const proofsCpu = measureProofsCpu();
  let bundle: Awaited<ReturnType<typeof measureBundle>> | undefined;
  if (!values["skip-bundle"]) {
    log("… bundle size (wrangler deploy --dry-run, minified as wrangler.toml deploys it)");
    bundle = await measureBundle();
  }

  const perRound = (scenario: string) => measured.filter((m) => m.scenario === scenario);
  const healthOf = (round: number) => measured.find((m) => m.round === round && m.scenario === "health")!;
  const summary = SCENARIOS.map(({ name }) => {
    const runs = perRound(name);
    return {
      name,
      rps: median(runs.map((m) => m.service.rps)),
      floorRps: median(runs.map((m) => m.floor.rps)),
      p50: median(runs.map((m) => m.service.p50)),
      p99: median(runs.map((m) => m.service.p99)),
      floorP50: median(runs.map((m) => m.floor.p50)),
      errors: runs.reduce((n, m) => n + m.service.errors + m.floor.errors, 0),
      /** Medians of the per-round ratios. */
      vsFloor: {
        rps: median(runs.map((m) => ratio(m.service.rps, m.floor.rps))),
        p50: median(runs.map((m) => ratio(m.service.p50, m.floor.p50))),
        p99: median(runs.map((m) => ratio(m.service.p99, m.floor.p99))),
      },
      vsHealth: { rps: median(runs.map((m) => ratio(m.service.rps, healthOf(m.round).service.rps))) },
      floorVsFloorHealth: { rps: median(runs.map((m) => ratio(m.floor.rps, healthOf(m.round).floor.rps))) },
      tailToMedian: median(runs.map((m) => ratio(m.service.p99, m.service.p50))),
      /** The floor's own tail, same rounds: what the machine and wrangler dev give a Worker that does nothing else. */
      floorTailToMedian: median(runs.map((m) => ratio(m.floor.p99, m.floor.p50))),
      roundsVsFloor: runs.map((m) => ratio(m.service.rps, m.floor.rps)),
      /** CPU microseconds per request of each server's processes (wrangler's Node and both workerd), and the floor's ÷ the service's per round. */
      cpuUs: median(runs.map((m) => m.service.cpuUs)),
      floorCpuUs: median(runs.map((m) => m.floor.cpuUs)),
      floorCpuVsCpu: median(runs.map((m) => ratio(m.floor.cpuUs, m.service.cpuUs))),
      cpuUsByRole: medianByRole(runs.map((m) => m.service.cpuUsByRole)),
      floorCpuUsByRole: medianByRole(runs.map((m) => m.floor.cpuUsByRole)),
    };
  });

  log("");
  log(
    table([
      [
        "scenario",
        "req/s",
        "floor req/s",
        "÷ floor (median)",
        "rounds ÷ floor",
        "p50 ms",
        "p99 ms",
        "p99 ÷ p50",
        "floor p99 ÷ p50",
        "÷ health",
        "floor ÷ floor health",
        "errors",
      ],
      ...summary.map((s) => [
        s.name,
        fmt(s.rps, 0),
        fmt(s.floorRps, 0),
        fmt(s.vsFloor.rps, 3),
        s.roundsVsFloor.map((r) => fmt(r, 2)).join(" "),
        fmt(s.p50, 0),
        fmt(s.p99, 0),
        fmt(s.tailToMedian, 1),
        fmt(s.floorTailToMedian, 1),
        fmt(s.vsHealth.rps, 3),
        fmt(s.floorVsFloorHealth.rps, 3),
        String(s.errors),
      ]),
    ]),
  );
  log("\nCPU per request, all of each server's processes (medians over the rounds; test/bench/process-cpu.ts):");
  log(
    table([
      ["scenario", "µs", "floor µs", "floor ÷ service", "service by process", "floor by process"],
      ...summary.map((s) => [
        s.name,
        fmt(s.cpuUs, 0),
        fmt(s.floorCpuUs, 0),
        fmt(s.floorCpuVsCpu, 3),
        formatByRole(s.cpuUsByRole),
        formatByRole(s.floorCpuUsByRole),
      ]),
    ]),
  );
  const issuance = summary.find((s) => s.name === "attestations")!;
  const perAttestation = (us: number) => fmt(us / ATTESTATIONS_PER_REQUEST / 1000, 2);
  const attestationFigures = {
    cpuMsPerAttestation: issuance.cpuUs / ATTESTATIONS_PER_REQUEST / 1000,
    floorCpuMsPerAttestation: issuance.floorCpuUs / ATTESTATIONS_PER_REQUEST / 1000,
    workerCpuMsPerAttestation: (issuance.cpuUsByRole["workerd (Worker)"] ?? NaN) / ATTESTATIONS_PER_REQUEST / 1000,
    floorWorkerCpuMsPerAttestation: (issuance.floorCpuUsByRole["workerd (Worker)"] ?? NaN) / ATTESTATIONS_PER_REQUEST / 1000,
    batchWallTimeMs: batchWallTime,
  };
  log(
    `attestations: CPU per attestation issued ${perAttestation(issuance.cpuUs)} ms (the Worker's workerd ${perAttestation(issuance.cpuUsByRole["workerd (Worker)"] ?? NaN)} ms), ` +
      `floor ${perAttestation(issuance.floorCpuUs)} ms (${perAttestation(issuance.floorCpuUsByRole["workerd (Worker)"] ?? NaN)} ms); ` +
      `a batch of ${ATTESTATIONS_PER_REQUEST} sent alone: ${fmt(batchWallTime.service.medianMs, 0)} ms wall (${batchWallTime.service.runsMs.map((ms) => fmt(ms, 0)).join(", ")}), ` +
      `floor ${fmt(batchWallTime.floor.medianMs, 0)} ms (${batchWallTime.floor.runsMs.map((ms) => fmt(ms, 0)).join(", ")}); ` +
      `the Worker's CPU per attestation in those batches ${cpuOfBatches(batchWallTime.service)} ms, floor ${cpuOfBatches(batchWallTime.floor)} ms`,
  );
  const pacedSummary = PACED.map(({ name }) => {
    const runs = paced.filter((m) => m.scenario === name);
    const of = (pick: (m: (typeof paced)[number]) => Paced, field: "p50" | "p99" | "max") => median(runs.map((m) => pick(m)[field]));
    return {
      name,
      p50: of((m) => m.service, "p50"),
      p99: of((m) => m.service, "p99"),
      floorP50: of((m) => m.floor, "p50"),
      floorP99: of((m) => m.floor, "p99"),
      tailToMedian: median(runs.map((m) => ratio(m.service.p99, m.service.p50))),
      floorTailToMedian: median(runs.map((m) => ratio(m.floor.p99, m.floor.p50))),
      errors: runs.reduce((n, m) => n + m.service.errors + m.floor.errors, 0),
    };
  });
  if (pacedRate > 0) {
    log(`\nat a fixed ${pacedRate} req/s (open loop, medians over the rounds):`);
    log(
      table([
        ["scenario", "p50 ms", "p99 ms", "p99 ÷ p50", "floor p50 ms", "floor p99 ms", "floor p99 ÷ p50", "errors"],
        ...pacedSummary.map((s) => [
          s.name,
          fmt(s.p50, 2),
          fmt(s.p99, 2),
          fmt(s.tailToMedian, 1),
          fmt(s.floorP50, 2),
          fmt(s.floorP99, 2),
          fmt(s.floorTailToMedian, 1),
          String(s.errors),
        ]),
      ]),
    );
  }
  const byName = (name: string) => summary.find((s) => s.name === name)!;
  const flow = byName("open+complete+poll");
  log(`(open+complete+poll: ${fmt(flow.rps / 3, 0)} whole flows per second, three requests each)`);
  log(
    `callback latency: p50 ${fmt(callbacks.p50, 0)} ms, p95 ${fmt(callbacks.p95, 0)} ms, max ${fmt(callbacks.max, 0)} ms ` +
      `(${callbacks.received}/${callbacks.sessions} received, ${callbacks.beforeAnswer} before the completion's response, ${callbacks.unverified} unverified)`,
  );
  log(
    `cold start, by workerd's profiler (as wrangler check startup): service ${fmt(startup.service.cpuMs)} ms, floor ${fmt(startup.floor.cpuMs)} ms`,
  );
  log(
    `cold start, workerd's CPU by the scheduler (every thread, no profiler): importing the script ${fmt(startup.service.workerd.importMs)} ms, ` +
      `floor ${fmt(startup.floor.workerd.importMs)} ms; loading the Worker (workerd's start to ready, the script read and compiled) ` +
      `${fmt(startup.service.workerd.loadMs)} ms, floor ${fmt(startup.floor.workerd.loadMs)} ms`,
  );
  log("");
  log(
    table([
      ["per request", "p50 ms", "p90 ms", "rounds"],
      ...proofsCpu.map((f) => [f.label, fmt(f.p50Ms, 2), fmt(f.p90Ms, 2), String(f.rounds)]),
    ]),
  );
  log("(Node's Web Crypto on this machine, timed call by call: test/bench/crypto-cpu.ts)");
  if (bundle) {
    const counted = bundle.wranglerKiB
      ? `wrangler: ${fmt(bundle.wranglerKiB.total, 2)} KiB, gzip ${fmt(bundle.wranglerKiB.gzip, 2)} KiB; `
      : "";
    log(
      `bundle (every uploaded module, minified): ${counted}summed here ${fmt(kib(bundle.rawBytes))} KiB, ${fmt(kib(bundle.gzipBytes))} KiB gzip (${bundle.files.length} modules)`,
    );
    const assets = bundle.staticAssets;
    log(
      `static assets (public/, not part of the script): ${fmt(kib(assets.rawBytes))} KiB, ${fmt(kib(assets.gzipBytes))} KiB gzip (${assets.files.length} files)`,
    );
  }
  const bundleGzipKiB = bundle ? (bundle.wranglerKiB?.gzip ?? kib(bundle.gzipBytes)) : NaN;

  const targets = [
    ...["health", "poll", "open"].map((name) => {
      const value = byName(name).vsFloor.rps;
      return { target: `${name} req/s ≥ ${TARGETS.vsFloor} × floor`, value: fmt(value, 3), met: value >= TARGETS.vsFloor };
    }),
    {
      target: `open+complete+poll req/s ≥ ${TARGETS.flowVsFloor} × floor`,
      value: fmt(flow.vsFloor.rps, 3),
      met: flow.vsFloor.rps >= TARGETS.flowVsFloor,
    },
    ...summary.map((s) => ({
      target: `${s.name} p99 ≤ ${TARGETS.tailToMedian} × p50`,
      value: `${fmt(s.tailToMedian, 1)} (floor ${fmt(s.floorTailToMedian, 1)})`,
      met: s.tailToMedian <= TARGETS.tailToMedian,
    })),
    {
      target: "no errors",
      value: String(summary.reduce((n, s) => n + s.errors, 0) + callbacks.unverified + (callbacks.sessions - callbacks.received)),
      met: summary.every((s) => s.errors === 0) && callbacks.unverified === 0 && callbacks.received === callbacks.sessions,
    },
    {
      target: `callback p50 ≤ ${TARGETS.callbackP50Ms} ms`,
      value: `${fmt(callbacks.p50, 0)} ms`,
      met: callbacks.p50 <= TARGETS.callbackP50Ms,
    },
    {
      target: `callback p95 ≤ ${TARGETS.callbackP95Ms} ms`,
      value: `${fmt(callbacks.p95, 0)} ms`,
      met: callbacks.p95 <= TARGETS.callbackP95Ms,
    },
    {
      // The script's import, the phase `wrangler check startup` profiles, counted by the scheduler: the
      // profiler's sampler, after the bench's load, reads the floor's few milliseconds as 0 to 0.9 ms where
      // the scheduler counts 2.7 to 3.4 (docs/performance.md, 27 Nov 2026, afternoon). Both are printed.
      target: `startup CPU ≤ floor + ${TARGETS.startupOverFloorMs} ms`,
      value: `${fmt(startup.service.workerd.importMs)} ms (floor ${fmt(startup.floor.workerd.importMs)} ms)`,
      met: startup.service.workerd.importMs <= startup.floor.workerd.importMs + TARGETS.startupOverFloorMs,
    },
    ...(bundle
      ? [
          {
            target: `bundle < ${TARGETS.bundleGzipKiB} KiB gzip`,
            value: `${fmt(bundleGzipKiB)} KiB`,
            met: bundleGzipKiB < TARGETS.bundleGzipKiB,
          },
        ]
      : []),
  ];
  log("");
  log(table([["target", "measured", ""], ...targets.map((t) => [t.target, t.value, t.met ? "met" : "MISSED"])]));

  const command = `npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`;
  const results = {
    measuredAt: new Date().toISOString(),
    command,
    baseUrl: values["base-url"] ?? "own wrangler dev (development config)",
    floorUrl: values["floor-url"] ?? "own wrangler dev (test/bench/floor/wrangler.toml)",
    machine: { platform: platform(), cpu: cpus()[0]?.model ?? "unknown", cpus: cpus().length },
    load,
    rounds,
    setup: { pinned, devtools: values.devtools, throughputRounds: "both servers loaded at the same time" },
    shards: fixturesByShard.map((f) => f.shard ?? 0),
    summary,
    measured,
    paced: pacedRate > 0 ? { rate: pacedRate, summary: pacedSummary, measured: paced } : null,
    callbackLatencyMs: callbacks,
    startupCpuMs: { service: startup.service.cpuMs, floor: startup.floor.cpuMs },
    startupWorkerdCpuMs: { service: startup.service.workerd, floor: startup.floor.workerd },
    proofsCpu,
    attestations: attestationFigures,
    bundle: bundle
      ? {
          files: bundle.files,
          rawBytes: bundle.rawBytes,
          gzipBytes: bundle.gzipBytes,
          wranglerKiB: bundle.wranglerKiB,
          staticAssets: bundle.staticAssets,
        }
      : null,
    targets,
  };
  const file = join(process.cwd(), "test", "bench", "results.json");
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`\nwritten: test/bench/results.json (${command})`);
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
