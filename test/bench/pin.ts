// Where the bench's processes run: the measured servers share one core of their own, the load generator
// (this process: autocannon, the callback receivers) has the others. Unpinned, the four busy processes of
// a measurement (wrangler's Node, two workerd, autocannon) migrate over the two cores as the scheduler
// sees fit, and how requests happen to batch moves a server's CPU per request by ±10 % from one
// 4-second round to the next: the floor measured against a second copy of itself read 0.77 to 1.09
// (docs/performance.md, 27 Nov 2026). Pinned, and with both servers loaded at the same time (bench.ts), two
// copies of the floor read 0.97 to 1.04. Linux only (`taskset`, util-linux); elsewhere nothing is pinned.
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { groupProcesses } from "./process-cpu";

function taskset(cpuList: string, pid: number): void {
  const run = spawnSync("taskset", ["--all-tasks", "--cpu-list", "--pid", cpuList, String(pid)], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.error?.message ?? run.stderr.trim());
}

/**
 * Pins every thread of the servers' process groups to the last core and the load generator (this process,
 * unless another is named) to the others; the threads they start later inherit it. Returns what it did,
 * for the bench's header, or why it did not.
 */
export function pinServers(processGroups: number[], generator = process.pid): string {
  const cores = cpus().length;
  if (process.platform !== "linux" || cores < 2) return "not pinned (Linux with 2 or more cores only)";
  if (processGroups.length === 0) return "not pinned (servers started elsewhere)";
  const serverCore = String(cores - 1);
  const generatorCores = cores === 2 ? "0" : `0-${cores - 2}`;
  try {
    for (const group of processGroups) for (const { pid } of groupProcesses(group)) taskset(serverCore, pid);
    taskset(generatorCores, generator);
  } catch (error) {
    return `not pinned (taskset: ${error instanceof Error ? error.message.split("\n")[0] : String(error)})`;
  }
  return `servers pinned to core ${serverCore}, the load generator to core${cores === 2 ? "" : "s"} ${generatorCores}`;
}
