// `npm run bench:cpu [-- --rounds 5] [--duration 4] [--only health,poll] [--other path/to/wrangler.toml
// [--other-is-floor]] [--devtools]`: the CPU time each server's processes spend per health, poll and open
// request (wrangler's Node, its proxy workerd, the Worker's workerd; test/bench/process-cpu.ts), the service
// beside the floor, loaded at the same time on the core they share (test/bench/pin.ts), round by round,
// without wrangler dev's DevTools relay unless `--devtools`. With `--other`, a third server built from another configuration
// is measured in the same rounds: an A/B of a change that the throughput's noise would hide
// (docs/performance.md). Either another checkout of the service (a `git worktree` of the commit before a
// change, its node_modules linked), or, with `--other-is-floor`, a variant of the floor (seeded as the
// floor is): the floor with the service's answer, or the floor's code under the service's wrangler.toml,
// to tell what of the service's cost is its code and what its answer or its configuration. `--only` leaves
// the open out, whose thousands of sessions stay in each server for the rounds after it.
import { parseArgs } from "node:util";
import { apiClient, expectStatus } from "../tools/api-client";
import { startDevServer, type DevServer } from "../tools/dev-server.mjs";
import { median, table } from "./figures";
import { prepare, seedFloor, type Fixtures } from "./prepare";
import { formatByRole, medianByRole, withCpuPerRequest } from "./process-cpu";
import { pinServers } from "./pin";
import { measureHealth, measureOpen, measurePoll, SESSION_PATH, type Load } from "./scenarios";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "4" },
    only: { type: "string", default: "health,poll,open" },
    other: { type: "string" },
    "other-is-floor": { type: "boolean", default: false },
    devtools: { type: "boolean", default: false },
  },
});
const load: Load = { connections: 10, duration: Number(values.duration) };
const ALL_SCENARIOS = {
  health: (t: Target, l: Load) => measureHealth(t.server.baseUrl, l),
  poll: (t: Target, l: Load) => measurePoll(t.server.baseUrl, l, t.fixtures, t.sessionId),
  // Opened sessions are never completed, so no callback is sent to this address.
  open: (t: Target, l: Load) => measureOpen(t.server.baseUrl, l, t.fixtures, CALLBACK_URL),
};
const only = new Set((values.only ?? "").split(","));
const SCENARIOS = Object.fromEntries(Object.entries(ALL_SCENARIOS).filter(([name]) => only.has(name)));
if (Object.keys(SCENARIOS).length === 0) throw new Error(`--only names none of ${Object.keys(ALL_SCENARIOS).join(", ")}`);
const CALLBACK_URL = "https://example.com/callbacks";
type Target = { name: string; server: DevServer; fixtures: Fixtures; sessionId: string };

const servers: DevServer[] = [];
const start = async (name: string, config?: string) => {
  const server = await startDevServer({ name, config, devTools: values.devtools });
  servers.push(server);
  return server;
};
try {
  const configs: [string, string | undefined][] = [
    ["service", undefined],
    ["floor", "test/bench/floor/wrangler.toml"],
    ...(values.other ? [["other", values.other] as [string, string]] : []),
  ];
  const targets: Target[] = [];
  for (const [name, config] of configs) {
    const server = await start(name === "service" ? "bench" : name, config);
    const floorLike = name === "floor" || (name === "other" && values["other-is-floor"]);
    const fixtures = floorLike ? await seedFloor(server.baseUrl) : await prepare(server.baseUrl);
    const opened = await apiClient(server.baseUrl)("POST", SESSION_PATH, {
      apiKey: fixtures.apiKey,
      body: { age_required: 18, callback_url: CALLBACK_URL },
    });
    expectStatus(opened, 201);
    targets.push({ name, server, fixtures, sessionId: opened.body.data.session_id as string });
  }
  console.log(pinServers(targets.map((target) => target.server.processGroup)));
  for (const target of targets) for (const run of Object.values(SCENARIOS)) await run(target, { connections: 10, duration: 2 });

  const runs: { scenario: string; target: string; rps: number; cpuUs: number; byRole: Record<string, number> }[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const [scenario, run] of Object.entries(SCENARIOS)) {
      // Every server at the same time, on the core they share, as the bench does: the machine's moments fall on each alike.
      const measured = await Promise.all(targets.map((target) => withCpuPerRequest(target.server.processGroup, () => run(target, load))));
      for (const [i, target] of targets.entries())
        runs.push({ scenario, target: target.name, rps: measured[i]!.rps, cpuUs: measured[i]!.cpuUs, byRole: measured[i]!.cpuUsByRole });
    }
  }
  const rows = Object.keys(SCENARIOS).flatMap((scenario) => {
    const floorRuns = runs.filter((r) => r.scenario === scenario && r.target === "floor");
    return targets.map(({ name }) => {
      const mine = runs.filter((r) => r.scenario === scenario && r.target === name);
      const byProcess = formatByRole(medianByRole(mine.map((r) => r.byRole)));
      // Each round's req/s ÷ the floor's in the same round: their spread is the resolution of an A/B here.
      const perRound = mine.map((r, i) => r.rps / floorRuns[i]!.rps);
      return [
        scenario,
        name,
        median(mine.map((r) => r.rps)).toFixed(0),
        median(perRound).toFixed(3),
        perRound.map((ratio) => ratio.toFixed(2)).join(" "),
        median(mine.map((r) => r.cpuUs)).toFixed(0),
        byProcess,
      ];
    });
  });
  console.log(`CPU µs per request, medians of ${values.rounds} rounds of ${load.duration} s:`);
  console.log(table([["scenario", "server", "req/s", "÷ floor", "rounds ÷ floor", "µs", "by process"], ...rows]));
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}
