// `npm run db:migrate -- --local|--remote [--env production|staging] [wrangler options…]`: applies drizzle/
// to every D1 shard the chosen wrangler.toml environment binds (DB, DB_1, …: docs/operations.md), one
// `wrangler d1 migrations apply` per binding, so adding a shard needs no new command. `npm run dev`
// runs it with --local; any other option (e.g. --persist-to <dir>) is passed on to wrangler.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { d1Bindings } from "./d1-bindings.mjs";

const args = process.argv.slice(2);
const envAt = args.indexOf("--env");
const env = envAt === -1 ? undefined : args[envAt + 1];
if (!args.includes("--local") && !args.includes("--remote")) {
  console.error("usage: npm run db:migrate -- --local|--remote [--env <name>] [wrangler options]");
  process.exit(2);
}
const bindings = d1Bindings(readFileSync(new URL("../../wrangler.toml", import.meta.url).pathname, "utf8"), env);
for (const binding of bindings) {
  console.log(`applying drizzle/ to ${binding}${env ? ` (env ${env})` : ""}`);
  const run = spawnSync("npx", ["wrangler", "d1", "migrations", "apply", binding, ...args], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
