// @ts-check
// `wrangler dev` without its DevTools relay, for the bench (test/tools/dev-server.mjs, `devTools: false`).
// wrangler dev connects an inspector proxy to the Worker's runtime even when no DevTools window is open,
// enables the Network domain there, and relays every message it receives to wrangler's Node process as
// an HTTP request, buffering each one for a DevTools window that never comes: four CDP events and as many
// loopback requests per storage call, and memory that grows with every request (docs/performance.md). The
// CLI has no switch for it; wrangler's startWorker API has (`dev.inspector: false`). Everything else is
// `wrangler dev`'s: the same configuration file, bindings, assets, local state and request log.
// Usage: node start-worker.mjs '{"config": "wrangler.toml", "port": 8787, "persist": "/tmp/state", "vars": {"APP_URL": "…"}}'
import { unstable_startWorker } from "wrangler";

/** @type {{ config: string; port: number; persist: string; vars: Record<string, string> }} */
const options = JSON.parse(process.argv[2] ?? "{}");
const worker = await unstable_startWorker({
  config: options.config,
  bindings: Object.fromEntries(Object.entries(options.vars).map(([name, value]) => [name, { type: "plain_text", value }])),
  dev: { server: { hostname: "localhost", port: options.port }, inspector: false, persist: options.persist, watch: false },
});
await worker.ready;
console.log(`Ready on ${(await worker.url).href}`);
const stop = async () => {
  await worker.dispose();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
