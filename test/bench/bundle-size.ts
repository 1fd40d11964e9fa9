// The Worker as Cloudflare counts it: `wrangler deploy --dry-run` with wrangler.toml's own settings
// (minify = true), every uploaded module of the script; source maps are not part of the script size.
// Reports wrangler's own "Total Upload … / gzip …" figures, which are what the size limit and the
// 120 KiB budget apply to, and the same sums computed here from the files as a check. The apps' browser
// files and stylesheet, and the non-English page catalogues, are Workers Static Assets (public/,
// wrangler.toml [assets]): uploaded beside the script, not part of it, and reported separately.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { runWrangler } from "./wrangler";

export type BundleSize = {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  wranglerKiB: { total: number; gzip: number } | null;
  /** The static assets under public/ (not part of the script): the served files, raw and gzip. */
  staticAssets: { files: string[]; rawBytes: number; gzipBytes: number };
};

/** The files' sizes summed, raw and gzipped. */
async function sizeOf(dir: string, files: string[]): Promise<{ rawBytes: number; gzipBytes: number }> {
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const name of files) {
    const bytes = await readFile(join(dir, name));
    rawBytes += bytes.byteLength;
    gzipBytes += gzipSync(bytes).byteLength;
  }
  return { rawBytes, gzipBytes };
}

async function staticAssets(): Promise<BundleSize["staticAssets"]> {
  // Every file under public/ (assets/, i18n/, ...) but _headers, which is configuration, not served. The
  // apps' scripts and stylesheet are symlinks to their sources in src/ (served, and read here, as files).
  const root = join(process.cwd(), "public");
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && entry.name !== "_headers")
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1))
    .sort();
  return { files, ...(await sizeOf(root, files)) };
}

export async function measureBundle(): Promise<BundleSize> {
  const outdir = await mkdtemp(join(tmpdir(), "age-bundle-"));
  try {
    const output = await runWrangler(["deploy", "--dry-run", "--outdir", outdir]);
    const reported = /Total Upload:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(output);
    const files = (await readdir(outdir)).filter((name) => !/\.map$|^README\.md$/.test(name));
    return {
      files,
      ...(await sizeOf(outdir, files)),
      wranglerKiB: reported ? { total: Number(reported[1]), gzip: Number(reported[2]) } : null,
      staticAssets: await staticAssets(),
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
