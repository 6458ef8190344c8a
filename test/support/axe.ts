import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** What axe checks: the whole document, one selector, or axe's own include list. */
export type AxeScope = string | { include: string[][] } | null;

/**
 * axe-core's violations on the page as it is now, one readable line per failing node. Evaluated
 * rather than added as a <script>: the site's Content-Security-Policy refuses an inline script,
 * and a test must not loosen it. `tags` narrows the rules (axe's `runOnly`).
 */
export async function axeViolations(page: Page, scope: AxeScope = null, tags?: string[]): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ scope, tags }) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
      const options = tags ? { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } } : { resultTypes: ['violations'] };
      const result = await axe.run(scope ?? document, options);
      return result.violations.flatMap((v) => v.nodes.map((n) => `axe ${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}`));
    },
    { scope, tags },
  );
}
