// The mutant StrykerJS made active for this run (workerd.vitest.config.ts), where the instrumented code
// looks for it: the `__stryker__` namespace on globalThis, which the Worker's modules share with the tests.
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** The active mutant's id, or "" for a run without one (Stryker's dry run). */
    strykerActiveMutant: string;
  }
}

const active = inject("strykerActiveMutant");
if (active !== "") {
  const namespace = ((globalThis as Record<string, unknown>).__stryker__ ??= {}) as { activeMutant?: string };
  namespace.activeMutant = active;
}
