import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}

declare module "vitest" {
  interface ProvidedContext {
    /** The test files that reach no binding (test/binding-free.ts), by absolute path. */
    bindingFreeTests: string[];
  }
}
