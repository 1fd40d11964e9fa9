// Starts `wrangler dev` for the bench on free ports with its own, throw-away local state, so a bench run
// neither collides with a developer's `npm run dev` (port 8787, inspector 9229) nor fills their database.
// Every way out stops the server's whole process group and removes the state folder: stop(), a failed
// start, the bench exiting, and Ctrl-C or SIGTERM (a detached group does not get the terminal's Ctrl-C).
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type DevServer = { baseUrl: string; stop(): Promise<void> };

const START_TIMEOUT_MS = 60_000;
/** How long wrangler gets to shut down on SIGTERM before the group is killed. */
const STOP_GRACE_MS = 5_000;

export async function freePort(): Promise<number> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

const wrangler = () => join(process.cwd(), "node_modules", ".bin", "wrangler");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const removeState = (state: string) => rmSync(state, { recursive: true, force: true });

async function run(args: string[]): Promise<void> {
  const child = spawn(wrangler(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  child.stderr?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  const code = await new Promise<number | null>((resolve) => {
    child.on("exit", resolve);
    child.on("error", (error) => {
      output += String(error);
      resolve(null);
    });
  });
  if (code !== 0) throw new Error(`wrangler ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`);
}

function signalGroup(pid: number | undefined, signal: "SIGTERM" | "SIGKILL") {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export async function startDevServer(): Promise<DevServer> {
  const state = await mkdtemp(join(tmpdir(), "age-bench-"));
  try {
    await run(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
  } catch (error) {
    removeState(state);
    throw error;
  }
  const port = await freePort();
  const inspectorPort = await freePort();
  // Its own process group, so that stopping it takes wrangler and workerd with it, and nothing else.
  const child = spawn(wrangler(), ["dev", "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let spawnError: Error | undefined;
  child.on("error", (error) => (spawnError = error));
  const exited = () => child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;

  // Registered right after spawn, before anything can fail. On exit nothing can be awaited: kill at once.
  const onExit = () => {
    signalGroup(child.pid, "SIGKILL");
    removeState(state);
  };
  // Handlers stay until the stop is done: a wrapper (npm, tsx) may pass the same Ctrl-C on again, and
  // with no listener left Node would exit at once, before the group is killed and the folder removed.
  const onSignal = (signal: "SIGINT" | "SIGTERM") => {
    void stop().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  const unregister = () => {
    process.removeListener("exit", onExit);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  };
  process.once("exit", onExit);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (!exited()) {
        signalGroup(child.pid, "SIGTERM");
        for (let waited = 0; waited < STOP_GRACE_MS && !exited(); waited += 100) await sleep(100);
      }
      // workerd may outlive wrangler in the group: SIGKILL whatever is left, then drop the state.
      signalGroup(child.pid, "SIGKILL");
      removeState(state);
      unregister();
    })());

  let tail = "";
  const keep = (chunk: Uint8Array) => (tail = (tail + new TextDecoder().decode(chunk)).slice(-4000));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (exited()) {
      await stop();
      throw new Error(`wrangler dev exited ${child.exitCode ?? child.signalCode ?? spawnError}:\n${tail}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) break;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within ${START_TIMEOUT_MS / 1000} s:\n${tail}`);
    }
    await sleep(250);
  }

  return { baseUrl, stop };
}
