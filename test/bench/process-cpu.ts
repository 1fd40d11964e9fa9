// CPU time of a dev server's processes (wrangler's Node process and its workerd processes, one process
// group: test/tools/dev-server.mjs), read from /proc. CPU per request is the bench's steadiest figure: a
// throughput ratio moves with whatever else the 2 cores run in those seconds, the CPU a server spends on
// each request hardly does (docs/performance.md). Linux only; elsewhere the figures read NaN.
import { readdirSync, readFileSync } from "node:fs";
import { median } from "./figures";

/** Clock ticks a second (USER_HZ), the unit of /proc/<pid>/stat's times: 100 on Linux. */
const TICKS_PER_SECOND = 100;

/** What each process of the group is, by its command line. */
function roleOf(commandLine: string): string {
  // wrangler's Node process: its CLI, or test/tools/start-worker.mjs running its API (the bench's servers).
  if (!commandLine.includes("workerd")) return /wrangler|start-worker\.mjs/.test(commandLine) ? "wrangler (Node)" : "other";
  // wrangler dev runs two workerd processes: the proxy that owns the public port, and the Worker's own.
  return /--socket-addr=entry=localhost:/.test(commandLine) ? "workerd (proxy)" : "workerd (Worker)";
}

/** A file of /proc, or "" when it is gone. */
export const readProc = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return ""; // The process ended between the listing and the read.
  }
};

/** The processes `keep` accepts, with the fields of /proc/<pid>/stat after the command's name (none off Linux). */
function processesWhere(keep: (stat: string[]) => boolean): { pid: number; stat: string[] }[] {
  if (process.platform !== "linux") return [];
  const found: { pid: number; stat: string[] }[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    // Fields after the command's closing parenthesis: state, ppid (index 1), pgrp (2), …, utime (11), stime (12).
    const stat = readProc(`/proc/${pid}/stat`).split(") ")[1]?.split(" ");
    if (stat && keep(stat)) found.push({ pid: Number(pid), stat });
  }
  return found;
}

/** The processes of a process group. */
export const groupProcesses = (processGroup: number) => (processGroup ? processesWhere((stat) => Number(stat[2]) === processGroup) : []);

/** The processes started by `parent`. */
export const childProcesses = (parent: number) => processesWhere((stat) => Number(stat[1]) === parent);

/** CPU seconds (user + system) used so far by each role of the group's processes. */
export function groupCpuSeconds(processGroup: number): Map<string, number> {
  const used = new Map<string, number>();
  for (const { pid, stat } of groupProcesses(processGroup)) {
    const role = roleOf(readProc(`/proc/${pid}/cmdline`).replaceAll("\0", " "));
    used.set(role, (used.get(role) ?? 0) + (Number(stat[11]) + Number(stat[12])) / TICKS_PER_SECOND);
  }
  return used;
}

const total = (used: Map<string, number>) => [...used.values()].reduce((sum, seconds) => sum + seconds, 0);

/** Runs `measure` and returns its result with the group's CPU microseconds per request it made (NaN off Linux). */
export async function withCpuPerRequest<T extends { requests: number }>(
  processGroup: number | undefined,
  measure: () => Promise<T>,
): Promise<T & { cpuUs: number; cpuUsByRole: Record<string, number> }> {
  const before = processGroup ? groupCpuSeconds(processGroup) : new Map<string, number>();
  const result = await measure();
  const after = processGroup ? groupCpuSeconds(processGroup) : new Map<string, number>();
  const perRequest = (seconds: number) => (after.size > 0 && result.requests > 0 ? (seconds * 1e6) / result.requests : NaN);
  const cpuUsByRole = Object.fromEntries([...after].map(([role, seconds]) => [role, perRequest(seconds - (before.get(role) ?? 0))]));
  return { ...result, cpuUs: perRequest(total(after) - total(before)), cpuUsByRole };
}

/** The median of each role's µs per request over several measurements (the roles of the first). */
export const medianByRole = (measurements: Record<string, number>[]): Record<string, number> =>
  Object.fromEntries(Object.keys(measurements[0] ?? {}).map((role) => [role, median(measurements.map((m) => m[role] ?? NaN))]));

/** "wrangler (Node) 1021, workerd (proxy) 995, …": the roles that serve requests, for a table cell. */
export const formatByRole = (roles: Record<string, number>): string =>
  Object.entries(roles)
    .filter(([role]) => role !== "other")
    .map(([role, us]) => `${role} ${Number.isFinite(us) ? us.toFixed(0) : "-"}`)
    .join(", ");
