// The bench's CPU per request (test/bench/process-cpu.ts) reads /proc: checked against a process group of
// its own that a busy loop visibly charges, and the division by the requests a measure made.
import { describe, expect, it } from "vitest";

/** What this test uses of test/bench/process-cpu.ts (a Node tool the root tsconfig does not check: imported by name). */
type ProcessCpuTool = {
  groupCpuSeconds(processGroup: number): Map<string, number>;
  withCpuPerRequest<T extends { requests: number }>(
    group: number | undefined,
    measure: () => Promise<T>,
  ): Promise<T & { cpuUs: number; cpuUsByRole: Record<string, number> }>;
  medianByRole(measurements: Record<string, number>[]): Record<string, number>;
  formatByRole(roles: Record<string, number>): string;
};
const processCpuTool = "../bench/process-cpu";
const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const platform = ((globalThis as { process?: { platform: string } }).process?.platform ?? "") as string;

/**
 * A process of its own group, as the bench's servers are (test/tools/dev-server.mjs), that idles 200 ms,
 * spins 300 ms, then idles: this test's own group also holds the test runner's other processes, which come
 * and go and take their CPU time with them.
 */
async function spinner() {
  const { spawn } = (await node("node:child_process")) as {
    spawn(cmd: string, args: string[], options: { detached: boolean; stdio: "ignore" }): { pid: number; kill(): void };
  };
  const execPath = (globalThis as { process?: { execPath: string } }).process!.execPath;
  const child = spawn(
    execPath,
    ["-e", "setTimeout(() => { const until = Date.now() + 300; while (Date.now() < until); setTimeout(() => {}, 10000); }, 200)"],
    { detached: true, stdio: "ignore" },
  );
  return child;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(platform === "linux")("CPU time of a process group", () => {
  it("counts the group's CPU, by process role, and rises with work done", async () => {
    const { groupCpuSeconds } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const total = (used: Map<string, number>) => [...used.values()].reduce((a, b) => a + b, 0);
    const child = await spinner();
    try {
      await sleep(100);
      const before = groupCpuSeconds(child.pid);
      expect([...before.keys()]).toEqual(["other"]);
      await sleep(700);
      // 300 ms of busy loop, read in 10 ms ticks.
      expect(total(groupCpuSeconds(child.pid)) - total(before)).toBeGreaterThanOrEqual(0.2);
    } finally {
      child.kill();
    }
    expect(groupCpuSeconds(2 ** 30).size).toBe(0);
  });

  it("divides the CPU a measure used by the requests it made; no group, no figure", async () => {
    const { withCpuPerRequest } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const child = await spinner();
    const measured = await withCpuPerRequest(child.pid, async () => {
      await sleep(800);
      return { requests: 100 };
    }).finally(() => child.kill());
    // About 3,000 µs a request (300 ms ÷ 100); ticks and the test runner's own work allow some slack.
    expect(measured.cpuUs).toBeGreaterThan(2_000);
    expect(measured.cpuUs).toBeLessThan(6_000);
    expect(Object.values(measured.cpuUsByRole).reduce((a, b) => a + b, 0)).toBeCloseTo(measured.cpuUs, 6);
    const none = await withCpuPerRequest(undefined, async () => ({ requests: 100 }));
    expect(none.cpuUs).toBeNaN();
  });

  it("takes each role's median over the rounds and prints the roles that serve requests", async () => {
    const { medianByRole, formatByRole } = (await import(/* @vite-ignore */ processCpuTool)) as ProcessCpuTool;
    const medians = medianByRole([
      { "workerd (Worker)": 1_000, other: 9 },
      { "workerd (Worker)": 1_300, other: 1 },
      { "workerd (Worker)": 1_100.4, other: 5 },
    ]);
    expect(medians).toEqual({ "workerd (Worker)": 1_100.4, other: 5 });
    expect(formatByRole(medians)).toBe("workerd (Worker) 1100");
    expect(formatByRole({ "wrangler (Node)": NaN })).toBe("wrangler (Node) -");
  });
});
