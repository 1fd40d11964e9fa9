// The tests StrykerJS runs for each mutant of src/digital-id and src/domain/age-tokens
// (test/stryker/stryker.config.json): those that exercise these modules in Node, where Stryker's vitest
// runner works (the workers project runs inside workerd through @cloudflare/vitest-pool-workers, which
// that runner cannot drive). The second opinion is left out (slow, and it judges nothing the mutation
// tests do not). The structural mutations run 150 cases per protocol here (20 sealed), not 10,000, with a fixed seed so
// that every mutant meets the same cases: a mutant that weakens a check is caught within the first few dozen.
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: decodeURIComponent(new URL("../..", import.meta.url).pathname),
  define: { OPENAPI_METADATA: "false", DEVELOPMENT_PAGES: "true" },
  test: {
    silent: "passed-only",
    environment: "node",
    include: [
      "test/node/digital-id-*.test.ts",
      "test/node/wycheproof.test.ts",
      // The verifier's own tests run in workerd in `npm test`; these need no binding (no `cloudflare:` import),
      // so they run in Node too, and here they judge every mutant as they judge the code.
      "test/digital-id/*.test.ts",
      // The age tokens' tests that reach no binding, with workerd's RSA-RAW and timingSafeEqual stood in
      // for by Node's (setup.ts); the rest go through D1 or the Worker and stay in workerd.
      "test/age-tokens/issuance-eligibility.test.ts",
      "test/age-tokens/blind-rsa-verification.test.ts",
      "test/age-tokens/issuance.test.ts",
      "test/age-tokens/known-answers.test.ts",
      "test/age-tokens/redemption.test.ts",
      "test/age-tokens/rotation.test.ts",
      "test/age-tokens/schemas.test.ts",
      "test/age-tokens/token-challenge.test.ts",
      "test/age-tokens/token-key-encoding.test.ts",
      "test/age-tokens/token-keys.test.ts",
      "test/age-tokens/wire-format.test.ts",
    ],
    setupFiles: ["test/stryker/setup.ts"],
    // The three test/digital-id files that drive the Worker through its bindings stay in workerd.
    exclude: [
      "test/node/digital-id-second-opinion.test.ts",
      "test/digital-id/failure-cap-concurrency.test.ts",
      "test/digital-id/mutated-answers.test.ts",
      "test/digital-id/session-routes.test.ts",
    ],
    env: { DIGITAL_ID_MUTATIONS: "150", DIGITAL_ID_SEALED_MUTATIONS: "20", DIGITAL_ID_MUTATION_SEED: "49" },
  },
});
