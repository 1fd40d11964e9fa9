// The Node API the migration command (db-migrate.ts) uses beyond the other tools' declarations: a child
// process that shares this one's terminal (wrangler's own output and prompts).
declare module "node:child_process" {
  export function spawnSync(command: string, args: string[], options: { stdio: "inherit" }): { status: number | null };
}
