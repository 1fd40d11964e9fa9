// The bench's CPU per request (test/bench/process-cpu.ts) reads /proc: checked against this test's own
// process group, which a busy loop visibly charges, and the division by the requests a measure made.
import { describe, expect, it } from "vitest";

/** What this test uses of test/bench/process-cpu.ts (a Node tool the root tsconfig does not check: imported by name). */
type ProcessCpuTool = {
  groupCpuSeconds(processGroup: number): Map<string, number>;
  withCpuPerRequest<T extends { requests: number }>(group: number | undefined, measure: () => Promise<T>): Promise<T & { cpuUs: number; cpuUsByRole: Record<string, number> }>;
  medianByRole(measurements: Record<string, number>[]): Record<string, number>;
  formatByRole(roles: Record<string, number>): string;
};
const processCpuTool = "../bench/process-cpu";
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const { readFileSync } = (await node("node:fs")) as { readFileSync(path: string, encoding: "utf8"): string };
const platform = ((globalThis as { process?: { platform: string } }).process?.platform ?? "") as string;

/** This process's group, field 5 of /proc/self/stat (after the command's closing parenthesis: state, ppid, pgrp). */
const ownGroup = () => Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")[2]);
const spin = (ms: number) => {
  const until = Date.now() + ms;
  let x = 0;
  while (Date.now() < until) x += Math.sqrt(x + 1);
  return x;
};

describe.runIf(platform === "linux")("CPU time of a process group", () => {
  it("counts the group's CPU, by process role, and rises with work done", async () => {
    const { groupCpuSeconds } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const total = (used: Map<string, number>) => [...used.values()].reduce((a, b) => a + b, 0);
    const before = groupCpuSeconds(ownGroup());
    expect(before.size).toBeGreaterThan(0);
    spin(300);
    const after = total(groupCpuSeconds(ownGroup()));
    // 300 ms of busy loop, read in 10 ms ticks.
    expect(after - total(before)).toBeGreaterThanOrEqual(0.2);
    expect(groupCpuSeconds(2 ** 30).size).toBe(0);
  });

  it("divides the CPU a measure used by the requests it made; no group, no figure", async () => {
    const { withCpuPerRequest } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const measured = await withCpuPerRequest(ownGroup(), async () => ({ requests: 100, spun: spin(300) }));
    // About 3,000 µs a request (300 ms ÷ 100); ticks and the test runner's own work allow some slack.
    expect(measured.cpuUs).toBeGreaterThan(2_000);
    expect(measured.cpuUs).toBeLessThan(6_000);
    expect(Object.values(measured.cpuUsByRole).reduce((a, b) => a + b, 0)).toBeCloseTo(measured.cpuUs, 6);
    const none = await withCpuPerRequest(undefined, async () => ({ requests: 100 }));
    expect(none.cpuUs).toBeNaN();
  });

  it("takes each role's median over the rounds and prints the roles that serve requests", async () => {
    const { medianByRole, formatByRole } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const medians = medianByRole([{ "workerd (Worker)": 1_000, other: 9 }, { "workerd (Worker)": 1_300, other: 1 }, { "workerd (Worker)": 1_100.4, other: 5 }]);
    expect(medians).toEqual({ "workerd (Worker)": 1_100.4, other: 5 });
    expect(formatByRole(medians)).toBe("workerd (Worker) 1100");
    expect(formatByRole({ "wrangler (Node)": NaN })).toBe("wrangler (Node) -");
  });
});
