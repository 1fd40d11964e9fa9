import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";
import { bindingFreeTests } from "./test/binding-free.js";

const migrations = await readD1Migrations("./drizzle");

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
        // As in the Worker's development bundle (wrangler.toml [define]): the routes carry no OpenAPI
        // descriptions; the development pages are in.
        define: { OPENAPI_METADATA: "false", DEVELOPMENT_PAGES: "true" },
        test: {
          name: "workers",
          include: ["test/**/*.test.ts"],
          exclude: ["test/node/**", "test/tools/**"],
          setupFiles: ["./test/apply-migrations.ts", "./test/no-network.ts"],
          // Property tests render tens of pages or sign tens of answers: well under a second on a quiet
          // machine, past vitest's default 5 s on a shared one (the mutation runs load it). A test that
          // hangs still fails, 20 s later.
          testTimeout: 20_000,
          // The files the setup leaves without "cloudflare:test" and the migrations (test/binding-free.ts).
          provide: { bindingFreeTests: bindingFreeTests("test") },
        },
      },
      {
        // Tools that need Node (they read files from node_modules): the OpenAPI validator; and the tests
        // of the Node-side tools themselves (test/tools, type-checked with their own tsconfig).
        // The OpenAPI document is generated here (test/node/openapi-static.test.ts), from the routes' descriptions.
        define: { OPENAPI_METADATA: "true", DEVELOPMENT_PAGES: "true" },
        test: { name: "node", include: ["test/node/**/*.test.ts", "test/tools/**/*.test.ts"], environment: "node" },
      },
    ],
  },
});
