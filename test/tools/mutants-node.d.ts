// The Node APIs the mutation runner (mutants.ts) uses beyond those node.d.ts declares; declarations of
// one module in two files merge, so each tool keeps its own list short.
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string): void;
  export function existsSync(path: string): boolean;
  export function mkdirSync(path: string, options?: { recursive?: boolean }): void;
  export function copyFileSync(from: string, to: string): void;
  export function symlinkSync(target: string, path: string): void;
  export function mkdtempSync(prefix: string): string;
}

declare module "node:child_process" {
  export function spawnSync(
    command: string,
    args: string[],
    options?: { cwd?: string; encoding?: "utf8"; timeout?: number; env?: Record<string, string | undefined>; maxBuffer?: number },
  ): { status: number | null; signal: string | null; stdout: string; stderr: string; error?: Error };
}

declare module "node:path" {
  export function dirname(path: string): string;
}
