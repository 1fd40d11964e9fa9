// TEST ONLY. How the service judged one (mutated) answer: refused with an ApiError of the digital-ID
// codes, accepted (an outcome), or crashed (anything else thrown: a 500 at the route, never counted).
// The project's type check has no Node types: the environment and the file system are reached untyped.
const environment = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
import { ApiError } from "../../../src/errors";

export type Judgement = { kind: "refused"; code: string } | { kind: "accepted"; outcome: unknown } | { kind: "crashed"; error: unknown };

export async function judge(verification: Promise<unknown>): Promise<Judgement> {
  try {
    return { kind: "accepted", outcome: await verification };
  } catch (error) {
    if (error instanceof ApiError && (error.code === "DIGITAL_ID_INVALID" || error.code === "DIGITAL_ID_INSUFFICIENT"))
      return { kind: "refused", code: error.code };
    return { kind: "crashed", error };
  }
}

/** Counts of what each mutation operator produced, written where DIGITAL_ID_MUTATION_REPORT names (the long run's figures). */
export class Tally {
  readonly counts: Record<string, Record<string, number>> = {};
  add(label: string, result: string) {
    const operator = label.split(":")[0]!;
    const row = (this.counts[operator] ??= {});
    row[result] = (row[result] ?? 0) + 1;
  }
  total = () => Object.values(this.counts).reduce((sum, row) => sum + Object.values(row).reduce((a, b) => a + b, 0), 0);
  async write(name: string) {
    const file = environment.DIGITAL_ID_MUTATION_REPORT;
    const fs = "node:fs";
    const { writeFileSync } = (await import(/* @vite-ignore */ fs)) as { writeFileSync(path: string, text: string): void };
    if (file) writeFileSync(`${file}.${name}.json`, JSON.stringify({ total: this.total(), byOperator: this.counts }, null, 2));
  }
}

/** Cases per protocol: 10,000 in `npm test`; DIGITAL_ID_MUTATIONS=100000 for the long run. */
export const MUTATION_RUNS = Number(environment.DIGITAL_ID_MUTATIONS ?? 10_000);

/** Cases per protocol through the full sealed path (re-sealing costs more): a fiftieth, at least 100 unless set. */
export const SEALED_RUNS = Number(environment.DIGITAL_ID_SEALED_MUTATIONS ?? Math.max(100, Math.floor(MUTATION_RUNS / 50)));

/** The seed of this run's draws (DIGITAL_ID_MUTATION_SEED replays a failing run). */
export const MUTATION_SEED = Number(environment.DIGITAL_ID_MUTATION_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * Runs `check` on `count` draws of `arbitrary`, a batch at a time: Web Crypto verifies on a thread pool,
 * so a batch in flight keeps both cores busy where one-by-one (fast-check's asyncProperty) waits on each.
 * A failure names the mutant and the seed that replays the run.
 */
export async function forEachDraw<T>(
  arbitrary: import("fast-check").Arbitrary<T>,
  count: number,
  check: (value: T) => Promise<void>,
  batch = 32,
): Promise<void> {
  const fc = (await import("fast-check")).default;
  const draws = fc.sample(arbitrary, { numRuns: count, seed: MUTATION_SEED });
  for (let start = 0; start < draws.length; start += batch) {
    const results = await Promise.allSettled(draws.slice(start, start + batch).map(check));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
    if (failed)
      throw new Error(`${(failed.reason as Error).message}\n(replay with DIGITAL_ID_MUTATION_SEED=${MUTATION_SEED})`, {
        cause: failed.reason,
      });
  }
}
