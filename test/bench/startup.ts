// Cold start: the CPU time of a Worker's startup phase (module evaluation: what Cloudflare runs for a fresh
// isolate before its first request), profiled locally in workerd by `wrangler check startup`. The sampled
// CPU time excludes the profiler's idle samples; the local CPU is not Cloudflare's, so compare it with the
// floor's figure from the same run.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Profile = { nodes: { id: number; callFrame: { functionName: string } }[]; samples: number[]; timeDeltas: number[] };

export async function measureStartup(config?: string): Promise<{ cpuMs: number }> {
  const dir = await mkdtemp(join(tmpdir(), "age-startup-"));
  try {
    const outfile = join(dir, "startup.cpuprofile");
    const args = ["check", "startup", "--outfile", outfile, ...(config ? ["--config", config] : [])];
    const child = spawn(join(process.cwd(), "node_modules", ".bin", "wrangler"), args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
    child.stderr?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (code !== 0) throw new Error(`wrangler check startup exited ${code}:\n${output.slice(-2000)}`);
    const profile = JSON.parse(new TextDecoder().decode(await readFile(outfile))) as Profile;
    const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id));
    let micros = 0;
    profile.samples.forEach((id, i) => {
      if (!idle.has(id)) micros += profile.timeDeltas[i] ?? 0;
    });
    return { cpuMs: micros / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
