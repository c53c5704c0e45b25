/**
 * axe-core in the page under test (issue #25 §7): injected with playwright's `addScriptTag` from
 * node_modules/axe-core, run over the whole document, its serious and critical violations
 * returned as short readable lines (and the full report written beside the screenshots).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import type { AxeResults } from "axe-core";

/** The impacts that fail a state: what keeps a user out, not a best-practice nit. */
const FAILING = new Set(["serious", "critical"]);

/** axe's script, from the installed devDependency. */
const AXE_SCRIPT = require.resolve("axe-core/axe.min.js");

/**
 * Runs axe over `page` as it stands (loading axe first if this document has not got it yet) and
 * returns one line per serious or critical violation: `rule-id (impact): help — target, target`.
 * Writes axe's whole answer to `<artifacts>/<name>.axe.json`.
 *
 * @example
 * expect(await seriousViolations(page, ARTIFACTS, "react-a11y-empty")).toEqual([]);
 */
export async function seriousViolations(page: Page, artifacts: string, name: string): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    // wcag2a/aa and best practices: the rules that say what a reader or a keyboard meets
    return axe.run(document, { resultTypes: ["violations"], runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
  });
  writeFileSync(join(artifacts, `${name}.axe.json`), `${JSON.stringify({ url: results.url, violations: results.violations }, null, 2)}\n`);
  return results.violations
    .filter((violation) => violation.impact != null && FAILING.has(violation.impact))
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}
