// axe-core (a dev dependency) run inside the page: the scan fails on any serious or critical violation.
import type { Page } from "playwright-core";
import { AXE_SOURCE } from "./axe-source.mjs";

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** The serious and critical violations on the page as it is now, one line each (empty when none). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // evaluate, not addScriptTag: the pages' CSP allows no inline or foreign script; evaluate is the DevTools protocol's.
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run(context: unknown, options: unknown): Promise<{ violations: unknown[] }> };
    };
    return (await page.axe.run(page.document, { resultTypes: ["violations"] })).violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
}
