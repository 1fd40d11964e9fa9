/// <reference types="vite/client" />
// Keeps the Worker bundle small: a named `{ z }` import from zod makes esbuild keep every zod locale
// (about 190 KiB), where `import * as z from "zod"` lets it drop them.
import { describe, expect, it } from "vitest";

const sources = import.meta.glob<string>("../../src/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

describe("bundle hygiene", () => {
  it("imports zod as a namespace everywhere", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const named = Object.entries(sources)
      .filter(([, text]) => /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*"zod"/.test(text))
      .map(([file]) => file);
    expect(named).toEqual([]);
  });

  it("takes zod's values only through src/lib/lazy-zod.ts, so no schema is built at start-up", () => {
    const direct = Object.entries(sources)
      .filter(([file, text]) => !file.endsWith("/src/lib/lazy-zod.ts") && /^import\s+(?!type\b)[^;]*\bfrom\s*"zod(?:\/[^"]*)?"/m.test(text))
      .map(([file]) => file);
    expect(direct).toEqual([]);
  });
});
