export type DevServer = { baseUrl: string; stop(): Promise<void>; output(): string };
/** Starts `wrangler dev` on E2E_PORT (default 8789) with a fresh local state; `vars` become `--var NAME:value`. */
export function startDevServer(options?: { vars?: Record<string, string> }): Promise<DevServer>;
