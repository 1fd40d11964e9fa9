// How the bench runs its servers: without wrangler dev's DevTools relay (test/tools/start-worker.mjs,
// started by dev-server.mjs with `devTools: false`), and pinned so that the servers share one core and
// the load generator has the others (test/bench/pin.ts).
import { describe, expect, it } from "vitest";

/** What this test uses of the bench's Node tools (not checked by the root tsconfig: imported by name). */
type PinTool = { pinServers(processGroups: number[], generator?: number): string };
type ProcessCpuTool = {
  groupCpuSeconds(processGroup: number): Map<string, number>;
  groupProcesses(processGroup: number): { pid: number }[];
};
type DevServerTool = {
  startDevServer(options: {
    name: string;
    config?: string;
    devTools?: boolean;
    args?: string[];
  }): Promise<{ baseUrl: string; inspectorPort: number; processGroup: number; stop(): Promise<void> }>;
};
type Spawned = { pid: number; kill(): void };
type NodeFs = { readFileSync(path: string, encoding: "utf8"): string };

const node = (name: string): Promise<any> => import(/* @vite-ignore */ name);
const nodeProcess = (globalThis as { process?: { platform: string; execPath: string; pid: number } }).process!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process group of its own (as a dev server's), idle; `args` end up in its command line. */
async function idleGroup(...args: string[]): Promise<Spawned> {
  const { spawn } = (await node("node:child_process")) as {
    spawn(cmd: string, args: string[], options: { detached: boolean; stdio: "ignore" }): Spawned;
  };
  return spawn(nodeProcess.execPath, ["-e", "setTimeout(() => {}, 20000)", ...args], { detached: true, stdio: "ignore" });
}

/** The cores a process's threads may run on, as the kernel reports them ("1", "0-2"). */
async function allowedCores(pid: number): Promise<string[]> {
  const { readFileSync } = (await node("node:fs")) as NodeFs;
  const { readdirSync } = (await node("node:fs")) as { readdirSync(path: string): string[] };
  return readdirSync(`/proc/${pid}/task`).map(
    (tid) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8"))![1]!,
  );
}

const cores = async () => ((await node("node:os")) as { cpus(): unknown[] }).cpus().length;
const linux = nodeProcess.platform === "linux";

describe.runIf(linux)("the bench's pinning", () => {
  it("pins every thread of each server group to the last core and the load generator to the others", async () => {
    const { pinServers } = (await node("../bench/pin")) as PinTool;
    const n = await cores();
    const [serverA, serverB, generator] = [await idleGroup(), await idleGroup(), await idleGroup()];
    try {
      await sleep(200);
      const said = pinServers([serverA.pid, serverB.pid], generator.pid);
      if (n < 2) {
        expect(said).toMatch(/^not pinned/);
        return;
      }
      const last = String(n - 1);
      expect(said).toBe(`servers pinned to core ${last}, the load generator to core${n === 2 ? "" : "s"} ${n === 2 ? "0" : `0-${n - 2}`}`);
      // Node runs several threads: each of them is pinned, not only the main one.
      for (const pid of [serverA.pid, serverB.pid]) {
        const threads = await allowedCores(pid);
        expect(threads.length).toBeGreaterThan(1);
        expect(new Set(threads)).toEqual(new Set([last]));
      }
      expect(new Set(await allowedCores(generator.pid))).toEqual(new Set([n === 2 ? "0" : `0-${n - 2}`]));
      // This process (the test runner) was not named: it keeps every core.
      expect((await allowedCores(nodeProcess.pid))[0]).not.toBe(last);
    } finally {
      for (const child of [serverA, serverB, generator]) child.kill();
    }
  });

  it("pins nothing without server groups, and says why", async () => {
    const { pinServers } = (await node("../bench/pin")) as PinTool;
    const generator = await idleGroup();
    try {
      await sleep(100);
      const before = await allowedCores(generator.pid);
      expect(pinServers([], generator.pid)).toMatch(/^not pinned/);
      expect(await allowedCores(generator.pid)).toEqual(before);
    } finally {
      generator.kill();
    }
  });

  it("counts the Node process that runs wrangler's API as wrangler's", async () => {
    const { groupCpuSeconds } = (await node("../bench/process-cpu")) as ProcessCpuTool;
    const child = await idleGroup("/somewhere/test/tools/start-worker.mjs", "{}");
    try {
      await sleep(200);
      expect([...groupCpuSeconds(child.pid).keys()]).toEqual(["wrangler (Node)"]);
    } finally {
      child.kill();
    }
  });
});

describe.runIf(linux)("a bench server without wrangler dev's DevTools relay", () => {
  it("serves the Worker with no inspector on its runtime", { timeout: 120_000 }, async () => {
    const { startDevServer } = (await node("../tools/dev-server.mjs")) as DevServerTool;
    const { groupProcesses } = (await node("../bench/process-cpu")) as ProcessCpuTool;
    const { readFileSync } = (await node("node:fs")) as NodeFs;
    await expect(startDevServer({ name: "no-devtools", devTools: false, args: ["--minify=false"] })).rejects.toThrow(/need devTools/);
    const server = await startDevServer({ name: "no-devtools", config: "test/bench/floor/wrangler.toml", devTools: false });
    try {
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect(health.status).toBe(200);
      expect(server.inspectorPort).toBe(0);
      const commandLines = groupProcesses(server.processGroup).map(({ pid }) =>
        readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "),
      );
      // wrangler's Node process runs its API here, and the runtimes it starts: the proxy's and the Worker's.
      expect(commandLines.filter((line) => line.includes("start-worker.mjs"))).toHaveLength(1);
      const runtimes = commandLines.filter((line) => line.includes("workerd serve"));
      expect(runtimes).toHaveLength(2);
      // `wrangler dev` gives the Worker's runtime an inspector address, which its DevTools relay connects to.
      for (const runtime of runtimes) expect(runtime).not.toContain("--inspector-addr");
    } finally {
      await server.stop();
    }
  });
});
