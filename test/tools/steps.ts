// One readable line per step: number, PASS/FAIL, what was called, the status, the key fields.
// Later steps need earlier results, so the first failure stops the run.
export class StepFailed extends Error {}

export class Steps {
  passed = 0;

  async run<T>(title: string, step: () => Promise<{ line: string; value: T }>): Promise<T> {
    const number = String(this.passed + 1).padStart(2, "0");
    try {
      const { line, value } = await step();
      this.passed++;
      console.log(`PASS  ${number}  ${title}  ${line}`);
      return value;
    } catch (error) {
      console.log(`FAIL  ${number}  ${title}  ${error instanceof Error ? error.message : String(error)}`);
      throw new StepFailed(title);
    }
  }
}

/** A `run` step whose result is only its printed line. */
export const line = (text: string) => ({ line: text, value: undefined });
