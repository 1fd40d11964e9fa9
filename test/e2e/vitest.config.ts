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
    // A browser, workerd and alarms on a loaded 2-core machine: a wait can run out once under load.
    // A test that fails twice in a row still fails the run; its console-error checks never retry away.
    retry: 1,
  },
});
