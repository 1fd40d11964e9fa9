// The Worker as it would be uploaded: `wrangler deploy --dry-run --minify`, measured raw and gzipped.
import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export type BundleSize = { files: string[]; rawBytes: number; gzipBytes: number };

export async function measureBundle(): Promise<BundleSize> {
  const outdir = await mkdtemp(join(tmpdir(), "age-bundle-"));
  try {
    const child = spawn(join(process.cwd(), "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--minify", "--outdir", outdir], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
    child.stderr?.on("data", (chunk) => (output += new TextDecoder().decode(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (code !== 0) throw new Error(`wrangler deploy --dry-run exited ${code}:\n${output.slice(-2000)}`);
    // Source maps and the like are not uploaded as code; the modules are.
    const files = (await readdir(outdir)).filter((name) => /\.(m?js|wasm)$/.test(name));
    let rawBytes = 0;
    let gzipBytes = 0;
    for (const name of files) {
      const bytes = await readFile(join(outdir, name));
      rawBytes += bytes.byteLength;
      gzipBytes += gzipSync(bytes, { level: 9 }).byteLength;
    }
    return { files, rawBytes, gzipBytes };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
