/// <reference types="vite/client" />
// The README's source map names every folder of src/ and no folder that is gone.
import { describe, expect, it } from "vitest";

const sources = import.meta.glob("../../src/**/*.{ts,tsx}");
const readme = Object.values(import.meta.glob<string>("../../README.md", { query: "?raw", import: "default", eager: true }))[0]!;

describe("README source map", () => {
  it("has a line for each top-level folder of src/, and names no folder src/ lacks", () => {
    const folders = [
      ...new Set(
        Object.keys(sources)
          .map((path) => path.replace("../../src/", "").split("/"))
          .filter((p) => p.length > 1)
          .map((p) => p[0]!),
      ),
    ].sort();
    const map = readme.slice(readme.indexOf("## Source map"), readme.indexOf("\n## ", readme.indexOf("## Source map") + 1));
    const named = [...new Set([...map.matchAll(/^- `src\/([\w-]+)\/`/gm)].map((m) => m[1]!))].sort();
    expect(folders.length).toBeGreaterThan(5);
    expect(named).toEqual(folders);
  });
});
