// @ts-check
// Starts `wrangler dev` on free ports with its own throw-away local state, for the bench (test/bench) and
// the browser tests (test/e2e), so that neither collides with a developer's `npm run dev` (port 8787,
// inspector 9229) nor fills their database. Plain JavaScript with dev-server.d.mts beside it: the browser
// tests are type-checked with the Workers types and no @types/node (the Worker must not see Node types),
// so they can only import a module whose declared types need nothing from Node. test/tools/tsconfig.json
// checks this file itself against test/tools/node.d.ts.
//
// Every way out stops the server's whole process group (wrangler and its workerd) and removes the state
// folder: stop(), a failed start, the process exiting, and SIGINT or SIGTERM (a detached group does not
// get the terminal's Ctrl-C). That also covers a test hook that timed out before startDevServer() returned
// anything to stop.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { d1Bindings } from "./d1-bindings.mjs";

const START_TIMEOUT_MS = 90_000;
/** How long wrangler gets to shut down on SIGTERM before the group is killed. */
const STOP_GRACE_MS = 5_000;
/** Starts that may fail because a port reported free was taken before wrangler bound it. */
const ATTEMPTS = 3;
/** output() keeps this much of the end: the bench's load makes wrangler log every request. */
const OUTPUT_LIMIT = 1 << 20;

const wrangler = () => join(process.cwd(), "node_modules", ".bin", "wrangler");
/** wrangler dev without its DevTools relay (start-worker.mjs beside this file). */
const startWorker = () => join(process.cwd(), "test", "tools", "start-worker.mjs");
/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** @param {string} state */
const removeState = (state) => rmSync(state, { recursive: true, force: true });

/**
 * @param {number | undefined} pid
 * @param {"SIGTERM" | "SIGKILL"} signal
 */
function signalGroup(pid, signal) {
  try {
    if (pid) process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** @param {string} baseUrl */
async function healthy(baseUrl) {
  try {
    // A server that accepts the connection but never answers must not hang the wait.
    return (await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
}

/** A port the OS just reported free; another process could still take it, so a start retries. */
export async function freePort() {
  const server = createServer(() => undefined);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  await new Promise((resolve) => server.close(() => resolve(undefined)));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

/** @param {string[]} args */
async function run(args) {
  const child = spawn(wrangler(), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const decoder = new TextDecoder();
  child.stdout?.on("data", (chunk) => (output += decoder.decode(chunk, { stream: true })));
  child.stderr?.on("data", (chunk) => (output += decoder.decode(chunk, { stream: true })));
  const code = await new Promise((resolve) => {
    child.on("exit", resolve);
    child.on("error", (error) => {
      output += String(error);
      resolve(null);
    });
  });
  if (code !== 0) throw new Error(`wrangler ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`);
}

// One set of process listeners for every server this process runs, registered while any is running.
/** @typedef {{ kill(): void; stop(): Promise<void> }} Running */
/** @type {Set<Running>} */
const running = new Set();

// On exit nothing can be awaited: kill at once.
const onExit = () => {
  for (const server of running) server.kill();
};
// The listeners stay until every stop is done: a wrapper (npm, tsx) may pass the same Ctrl-C on again,
// and with no listener left Node would exit at once, before the group is killed and the folder removed.
// Then the signal is raised again with our listeners gone, so the process ends as it would have without
// us (under tsx: exit code 130 or 143), and a test runner's own listeners still get it.
/** @type {Promise<unknown> | undefined} */
let interrupted;
/** @param {"SIGINT" | "SIGTERM"} signal */
const onSignal = (signal) => {
  interrupted ??= Promise.allSettled([...running].map((server) => server.stop())).then(() => {
    unlisten();
    interrupted = undefined;
    process.kill(process.pid, signal);
  });
};
const listen = () => {
  process.on("exit", onExit);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
};
const unlisten = () => {
  process.removeListener("exit", onExit);
  process.removeListener("SIGINT", onSignal);
  process.removeListener("SIGTERM", onSignal);
};
/** @param {Running} server */
const track = (server) => {
  if (running.size === 0) listen();
  running.add(server);
};
/** @param {Running} server */
const untrack = (server) => {
  running.delete(server);
  if (running.size === 0 && !interrupted) unlisten();
};

/**
 * @param {{ name: string; vars: Record<string, string>; config: string | undefined; args: string[]; devTools: boolean }} options
 * @param {number} port
 * @param {number} inspectorPort
 * @returns {Promise<DevServer>}
 */
async function startOnce({ name, vars, config, args: extraArgs, devTools }, port, inspectorPort) {
  const baseUrl = `http://localhost:${port}`;
  if (await healthy(baseUrl)) throw new Error(`port ${port} is already serving: stop that server first`);

  const state = await mkdtemp(join(tmpdir(), `avs-${name}-`));
  /** @type {import("node:child_process").ChildProcess | undefined} */
  let child;
  /** @type {Error | undefined} */
  let spawnError;
  const exited = () => !child || child.exitCode !== null || child.signalCode !== null || spawnError !== undefined;
  /** @type {Promise<void> | undefined} */
  let stopping;
  /** @type {Running} */
  const server = {
    kill() {
      signalGroup(child?.pid, "SIGKILL");
      removeState(state);
    },
    stop: () =>
      (stopping ??= (async () => {
        if (!exited()) {
          signalGroup(child?.pid, "SIGTERM");
          for (let waited = 0; waited < STOP_GRACE_MS && !exited(); waited += 100) await sleep(100);
        }
        // workerd may outlive wrangler in the group: SIGKILL whatever is left, then drop the state.
        signalGroup(child?.pid, "SIGKILL");
        removeState(state);
        untrack(server);
      })()),
  };
  // Tracked before anything can fail or time out, so that no way out leaves the folder or the group.
  track(server);

  let output = "";
  try {
    const configArgs = config ? ["--config", config] : [];
    // Every D1 shard the configuration binds (DB, DB_1, …: docs/operations.md), as `npm run db:migrate` does.
    for (const binding of d1Bindings(readFileSync(config ?? "wrangler.toml", "utf8"))) {
      await run(["d1", "migrations", "apply", binding, "--local", "--persist-to", state, ...configArgs]);
    }
    const allVars = { APP_URL: baseUrl, ...vars };
    const varArgs = Object.entries(allVars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
    // Its own process group (detached), so that stopping it takes wrangler and workerd, and nothing else.
    const args = [
      "dev",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      state,
      ...configArgs,
      ...extraArgs,
    ];
    const [command, commandArgs] = devTools
      ? [wrangler(), [...args, "--show-interactive-dev-session=false", ...varArgs]]
      : [process.execPath, [startWorker(), JSON.stringify({ config: config ?? "wrangler.toml", port, persist: state, vars: allVars })]];
    child = spawn(command, commandArgs, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.on("error", (error) => (spawnError = error));
    const decoder = new TextDecoder();
    /** @param {Uint8Array} chunk */
    const keep = (chunk) => {
      output += decoder.decode(chunk, { stream: true });
      if (output.length > 2 * OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);

    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await healthy(baseUrl))) {
      if (exited()) {
        const how = spawnError ?? child.exitCode ?? child.signalCode;
        throw Object.assign(new Error(`wrangler dev exited (${how}):\n${output.slice(-3000)}`), {
          retry: /EADDRINUSE|address already in use/i.test(output),
        });
      }
      if (Date.now() > deadline)
        throw new Error(`wrangler dev did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-3000)}`);
      await sleep(250);
    }
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    baseUrl,
    inspectorPort: devTools ? inspectorPort : 0,
    processGroup: child?.pid ?? 0,
    stop: server.stop,
    output: () => output.slice(-OUTPUT_LIMIT),
  };
}

// Typed by the declarations the importers see (a self-import resolves to dev-server.d.mts), so the two agree.
/** @typedef {import("./dev-server.mjs").DevServer} DevServer */
/**
 * @param {Parameters<typeof import("./dev-server.mjs").startDevServer>[0]} options
 * @returns {Promise<DevServer>}
 */
export async function startDevServer({ name, vars = {}, config, args = [], devTools = true }) {
  if (!devTools && args.length > 0)
    throw new Error("wrangler dev's arguments need devTools: the server without them is started through wrangler's API");
  const pinned = process.env[`${name.toUpperCase()}_PORT`];
  const pinnedInspector = process.env[`${name.toUpperCase()}_INSPECTOR_PORT`];
  for (let attempt = 1; ; attempt++) {
    const port = Number(pinned || (await freePort()));
    const inspectorPort = Number(pinnedInspector || (await freePort()));
    try {
      return await startOnce({ name, vars, config, args, devTools }, port, inspectorPort);
    } catch (error) {
      // A free port taken between the check and wrangler's bind: try other ports.
      const retry = error instanceof Error && "retry" in error && error.retry;
      if (!retry || attempt >= ATTEMPTS || pinned) throw error;
    }
  }
}
