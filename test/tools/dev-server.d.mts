// The types of dev-server.mjs, free of Node's: the browser tests (Workers types) import it too.
export type DevServer = {
  /** `http://localhost:PORT`, also given to the Worker as APP_URL. */
  baseUrl: string;
  /** wrangler's DevTools inspector (the bench's CPU profile, test/bench/profile.ts); 0 without `devTools`. */
  inspectorPort: number;
  /** The process group of wrangler and its workerd processes (wrangler's pid): the bench reads their CPU time. */
  processGroup: number;
  /** Stops the process group (SIGTERM, SIGKILL after 5 s) and removes the state; safe to call twice. */
  stop(): Promise<void>;
  /** What wrangler printed so far (its last MiB). */
  output(): string;
};
/**
 * Starts `wrangler dev` on free ports with a fresh local state in `avs-<name>-…` under the temp folder,
 * after applying the migrations; `<NAME>_PORT` and `<NAME>_INSPECTOR_PORT` pin the ports when set (e.g.
 * E2E_PORT). `vars` become `--var NAME:value`. Resolves once /api/health answers (at most 90 s); retries
 * on other ports when one was taken meanwhile. `config` names another wrangler configuration (the bench's
 * floor Worker, test/bench/floor/wrangler.toml); it must answer GET /api/health too. `args` go to `wrangler dev`
 * as they are (the profile's `--minify=false`). The server's process group is stopped and its state removed
 * on a failed start, by stop(), and when the process exits or gets SIGINT/SIGTERM. `devTools: false` starts
 * the same Worker through wrangler's API without the inspector (test/tools/start-worker.mjs): no DevTools
 * relay on every storage call, which the bench's servers must not pay (docs/performance.md); it takes no `args`.
 */
export function startDevServer(options: {
  name: string;
  vars?: Record<string, string>;
  config?: string;
  args?: string[];
  devTools?: boolean;
}): Promise<DevServer>;
/** A port the OS just reported free. */
export function freePort(): Promise<number>;
