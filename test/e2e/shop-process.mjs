// @ts-check
// Runs the sample shop (docs/examples/shop/shop.ts) as a merchant would, `npx tsx … --base-url … --port …`,
// for test/e2e/drop-in.e2e.ts: resolves once it prints that it listens, and stops its process group.
// Plain JavaScript with shop-process.d.mts beside it, like dev-server.mjs (the e2e files see no Node types).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { freePort } from "../tools/dev-server.mjs";

/** @param {string} serviceUrl */
export async function startShop(serviceUrl) {
  const port = await freePort();
  const child = spawn(
    join(process.cwd(), "node_modules", ".bin", "tsx"),
    ["docs/examples/shop/shop.ts", "--base-url", serviceUrl, "--port", String(port)],
    {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", stop);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the shop did not start:\n${output}`)), 60_000);
    /** @param {Uint8Array} chunk */
    const read = (chunk) => {
      output += new TextDecoder().decode(chunk);
      if (output.includes("example shop on")) {
        clearTimeout(timer);
        resolve(undefined);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the shop exited (${code}):\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, output: () => output, stop: async () => stop() };
}
