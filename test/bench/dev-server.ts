// Starts `wrangler dev` for the bench on free ports with its own, throw-away local state, so a bench run
// neither collides with a developer's `npm run dev` (port 8787, inspector 9229) nor fills their database.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type DevServer = { baseUrl: string; stop(): Promise<void> };

export async function freePort(): Promise<number> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

const wrangler = () => join(process.cwd(), "node_modules", ".bin", "wrangler");

async function run(args: string[]): Promise<void> {
  const child = spawn(wrangler(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  child.stderr?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`wrangler ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`);
}

export async function startDevServer(): Promise<DevServer> {
  const state = await mkdtemp(join(tmpdir(), "age-bench-"));
  await run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
  const port = await freePort();
  const inspectorPort = await freePort();
  // Its own process group, so that stopping it takes wrangler and workerd with it, and nothing else.
  const child = spawn(wrangler(), ["dev", "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let tail = "";
  const keep = (chunk: Uint8Array) => (tail = (tail + new TextDecoder().decode(chunk)).slice(-4000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  process.on("exit", kill);

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited ${child.exitCode}:\n${tail}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) {
      kill();
      throw new Error(`wrangler dev did not answer within 60 s:\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    baseUrl,
    async stop() {
      kill();
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.on("exit", () => resolve()));
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await rm(state, { recursive: true, force: true });
    },
  };
}
