import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import type { E2E } from './support.ts';

// axe-core on every screen (a11y.test.ts: signed out and a brand-new account; a11y-data.test.ts: an
// account with data, dialogs and the phone menu). Two files so that they run side by side with the
// other browser tests. Any serious or critical violation fails the test.

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** A context whose pages accept the injected axe script (our CSP allows only same-origin scripts). */
export async function newAxePage(e2e: E2E, width: number): Promise<{ page: Page; context: BrowserContext }> {
  const context = await e2e.browser.newContext({
    viewport: { width, height: width > 600 ? 900 : 844 },
    baseURL: e2e.app.url,
    bypassCSP: true,
    reducedMotion: 'reduce', // dialogs open without waiting for animations
  });
  return { page: await context.newPage(), context };
}

export async function seriousViolations(page: Page, label: string): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

export async function visit(page: Page, path: string, ready: () => Promise<unknown>): Promise<void> {
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
}

export const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

/** Visits one of SIGNED_IN_SCREENS (screens.ts): its h1, or half a second for /checkout, then a quiet network. */
export const visitScreen = (page: Page, path: string) =>
  visit(page, path, () => (path === '/checkout' ? page.waitForTimeout(500) : h1(page)));
