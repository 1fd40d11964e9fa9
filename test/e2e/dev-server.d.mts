export type DevServer = { baseUrl: string; stop(): Promise<void>; output(): string };
/**
 * Starts `wrangler dev` on free ports (or E2E_PORT / E2E_INSPECTOR_PORT when set) with a fresh local
 * state; `vars` become `--var NAME:value`. The server's process group is stopped on a failed start, by
 * stop(), and when the test process exits.
 */
export function startDevServer(options?: { vars?: Record<string, string> }): Promise<DevServer>;
export function freePort(): Promise<number>;
