import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig, type Plugin } from "vitest/config";

const migrations = await readD1Migrations("./drizzle");

// The Worker imports the apps' browser files as their text (the Text module rules in wrangler.toml,
// which the workers pool applies itself); Node-side tests that import the app read them the same way,
// through Vite's ?raw loader.
const browserFilesAsText: Plugin = {
  name: "browser-files-as-text",
  enforce: "pre",
  async resolveId(source, importer, options) {
    if (!/\.browser\.js$|\.css$/.test(source)) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved && { ...resolved, id: `${resolved.id}?raw` };
  },
};

export default defineConfig({
  test: {
    // Logs of passing tests are noise; a failing test shows its own.
    silent: "passed-only",
    projects: [
      {
        // Almost everything runs inside workerd, against real D1, Durable Objects and Queues.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations },
              // Deliver queued callbacks at once in tests instead of after max_batch_timeout.
              queueConsumers: { callbacks: { maxBatchTimeout: 0 }, mail: { maxBatchTimeout: 0 } },
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: ["test/node/**", "test/tools/**"],
          setupFiles: ["./test/apply-migrations.ts", "./test/no-network.ts"],
        },
      },
      {
        // Tools that need Node (they read files from node_modules): the OpenAPI validator; and the tests
        // of the Node-side tools themselves (test/tools, type-checked with their own tsconfig).
        plugins: [browserFilesAsText],
        test: { name: "node", include: ["test/node/**/*.test.ts", "test/tools/**/*.test.ts"], environment: "node" },
      },
    ],
  },
});
