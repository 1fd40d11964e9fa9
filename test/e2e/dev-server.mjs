// Starts `wrangler dev` for the browser tests, on its own port and a fresh local state directory, and
// stops it again. Plain JavaScript: it needs Node's APIs, and the project has no @types/node (the
// Worker must not see Node types); dev-server.d.mts gives the test files its types.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const WRANGLER = join(process.cwd(), "node_modules", ".bin", "wrangler");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(baseUrl) {
  try {
    return (await fetch(`${baseUrl}/api/health`)).ok;
  } catch {
    return false;
  }
}

export async function startDevServer({ vars = {} } = {}) {
  const port = Number(process.env.E2E_PORT || 8789);
  const inspectorPort = Number(process.env.E2E_INSPECTOR_PORT || 9239);
  const baseUrl = `http://localhost:${port}`;
  if (await healthy(baseUrl)) throw new Error(`port ${port} is already serving: stop that server first`);

  const state = mkdtempSync(join(tmpdir(), "avs-e2e-"));
  execFileSync(WRANGLER, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", state], { stdio: "ignore" });
  const varArgs = Object.entries({ APP_URL: baseUrl, ...vars }).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
  const child = spawn(
    WRANGLER,
    ["dev", "--port", String(port), "--inspector-port", String(inspectorPort), "--persist-to", state, "--show-interactive-dev-session=false", ...varArgs],
    { detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));

  const stop = async () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      for (let i = 0; i < 50 && child.exitCode === null; i++) await sleep(100);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    rmSync(state, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (!(await healthy(baseUrl))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not start:\n${output.slice(-3000)}`);
    }
    await sleep(300);
  }
  return { baseUrl, stop, output: () => output };
}
