// The browser end-to-end tests: Node-side, against `wrangler dev`, driving Debian's chromium through
// playwright-core. Not part of `npm test`; `.ci/run` runs them with
// `npx vitest run --config test/e2e/vitest.config.ts`. Each file starts its own server on free ports;
// one file at a time, so that a single chromium and workerd share the machine.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.e2e.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // No retry: a test that fails once is a bug to find (in the page, the server or the test), not noise.
  },
});
