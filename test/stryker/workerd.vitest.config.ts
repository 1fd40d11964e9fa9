// StrykerJS over the age tokens' three files that read and write D1 (test/stryker/workerd.stryker.config.json):
// its command runner runs this config, the workers project of vitest.config.ts narrowed to the tests that
// reach those files. Stryker names the active mutant in the environment of the command; workerd does not
// see the host's environment, so the setup file hands it to the instrumented code (test/stryker/workerd-setup.ts).
import { defineConfig } from "vitest/config";
import root from "../../vitest.config";

const workers = (root.test!.projects as { test: Record<string, unknown> }[])[0]!;
// Node's environment, read untyped: this file type-checks with the Workers types (the root tsconfig).
const hostEnv = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

export default defineConfig({
  test: {
    silent: "passed-only",
    projects: [
      {
        ...(workers as object),
        test: {
          ...workers.test,
          include: [
            "test/age-tokens/issuance-route.test.ts",
            "test/age-tokens/issuance-apart.test.ts",
            "test/age-tokens/production-settings.test.ts",
            "test/age-tokens/redemption-route.test.ts",
          ],
          setupFiles: [...(workers.test.setupFiles as string[]), "./test/stryker/workerd-setup.ts"],
          provide: { ...(workers.test.provide as object), strykerActiveMutant: hostEnv.__STRYKER_ACTIVE_MUTANT__ ?? "" },
        },
      },
    ],
  },
});
