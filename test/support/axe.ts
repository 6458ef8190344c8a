import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** What axe checks: the whole document, one selector, or axe's own include list. */
export type AxeScope = string | { include: string[][] } | null;

/**
 * Has every document the context loads from now on start with axe-core, before the page's own
 * scripts: for a context that is checked page after page, the 550 kB source goes to the browser
 * once instead of once a check. An init script is outside the site's Content-Security-Policy,
 * as `evaluate` is; axe does nothing until it is run.
 */
export async function preloadAxe(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: AXE_SOURCE });
}

/**
 * axe-core's violations on the page as it is now, one readable line per failing node. Evaluated
 * rather than added as a <script>: the site's Content-Security-Policy refuses an inline script,
 * and a test must not loosen it. Evaluated only when the document has no axe yet (a second check
 * of the same document, or a context given `preloadAxe`). `tags` narrows the rules (axe's `runOnly`).
 */
export async function axeViolations(page: Page, scope: AxeScope = null, tags?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ scope, tags }) => {
      const axe = (
        window as unknown as {
          axe: {
            run(
              context: unknown,
              options: object,
            ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      const options = tags ? { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } } : { resultTypes: ['violations'] };
      const result = await axe.run(scope ?? document, options);
      return result.violations.flatMap((v) => v.nodes.map((n) => `axe ${v.impact} ${v.id} (${v.help}) at ${n.target.join(' ')}`));
    },
    { scope, tags },
  );
}
