// Starts `wrangler dev` for the browser tests, on free ports and a fresh local state directory, and
// stops it again. Plain JavaScript: it needs Node's APIs, and the project has no @types/node (the
// Worker must not see Node types); dev-server.d.mts gives the test files its types.
//
// Every way out stops the server's whole process group (wrangler and its workerd): a failed start,
// stop(), and the test process exiting or being interrupted, which also covers a beforeAll that timed
// out before startDevServer() returned anything to stop.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WRANGLER = join(process.cwd(), "node_modules", ".bin", "wrangler");
const START_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 5_000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const server = createServer();
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

async function startOnce(vars, port, inspectorPort) {
  const baseUrl = `http://localhost:${port}`;
  if (await healthy(baseUrl)) throw new Error(`port ${port} is already serving: stop that server first`);

  const state = mkdtempSync(join(tmpdir(), "avs-e2e-"));
  try {
    execFileSync(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { stdio: "ignore" });
  } catch (error) {
    rmSync(state, { recursive: true, force: true });
    throw error;
  }
  const varArgs = Object.entries({ APP_URL: baseUrl, ...vars }).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  // Its own process group (detached), so that stopping it takes wrangler and workerd, and nothing else.
  const child = spawn(
    WRANGLER,
    ["dev", "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state, "--show-interactive-dev-session=false", ...varArgs],
    { detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  // Registered before anything can fail or time out: the test process never leaves the group behind.
  // A detached group does not get the terminal's Ctrl-C, so a signal to us is passed on, then re-raised.
  const onExit = () => {
    if (child.pid) signalGroup(child.pid, "SIGKILL");
    rmSync(state, { recursive: true, force: true });
  };
  const onSignal = (signal) => {
    unregister();
    onExit();
    process.kill(process.pid, signal);
  };
  const unregister = () => {
    process.removeListener("exit", onExit);
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  };
  process.once("exit", onExit);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let output = "";
  let spawnError = null;
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  child.on("error", (error) => (spawnError = error));
  const exited = () => child.exitCode !== null || child.signalCode !== null || spawnError !== null;

  let stopped = null;
  const stop = () =>
    (stopped ??= (async () => {
      unregister();
      if (child.pid && !exited()) {
        signalGroup(child.pid, "SIGTERM");
        for (let waited = 0; waited < STOP_GRACE_MS && !exited(); waited += 100) await sleep(100);
      }
      // The leader may be gone while workerd lingers in the group: SIGKILL the group regardless.
      if (child.pid) signalGroup(child.pid, "SIGKILL");
      rmSync(state, { recursive: true, force: true });
    })());

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await healthy(baseUrl))) {
      if (exited()) throw Object.assign(new Error(`wrangler dev exited:\n${spawnError ?? ""}${output.slice(-3000)}`), { retry: /EADDRINUSE|address already in use/i.test(output) });
      if (Date.now() > deadline) throw new Error(`wrangler dev did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-3000)}`);
      await sleep(300);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop, output: () => output };
}

export async function startDevServer({ vars = {} } = {}) {
  for (let attempt = 1; ; attempt++) {
    const port = Number(process.env.E2E_PORT || (await freePort()));
    const inspectorPort = Number(process.env.E2E_INSPECTOR_PORT || (await freePort()));
    try {
      return await startOnce(vars, port, inspectorPort);
    } catch (error) {
      // A free port taken between the check and wrangler's bind: try other ports.
      if (!error.retry || attempt >= 3 || process.env.E2E_PORT) throw error;
    }
  }
}
