// The project's own wrangler, run to completion for the bench's build steps: its output (stdout and
// stderr together) on success, an error with the output's end otherwise.
import { spawn } from "node:child_process";
import { join } from "node:path";

export function runWrangler(args: string[]): Promise<string> {
  const child = spawn(join(process.cwd(), "node_modules", ".bin", "wrangler"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  child.stderr?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(" ")} exited ${code}:\n${output.slice(-2000)}`)),
    ),
  );
}
