import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, waitUntilInteractive, type E2E, renderedHtml } from './support.ts';
import { createCampaign } from '../../src/test/factories.ts';
import { SERVER_RENDERED_CARDS } from '../../web/src/features/discover/server-rendered-cards.ts';

// Discover's HTML carries the first cards of each list only (decision 049, session 18): a member's
// Discover with dozens of featured cards cost the server's renderer ~130 ms of CPU, most of it cards
// below the first screen. The browser hydrates those first cards without a mismatch and renders the rest.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

const PER_LIST = SERVER_RENDERED_CARDS + 3;
const name = (list: 'Featured' | 'Regular', i: number) => `Grid ${list} ${String(i).padStart(2, '0')}`;

describe("Discover's server-rendered cards", () => {
  beforeAll(async () => {
    const owner = await e2e.app.signIn('grid_owner');
    for (let i = 0; i < PER_LIST; i++) {
      createCampaign(e2e.app.server.ctx.db, {
        ownerId: owner.user!.id,
        kind: 'featured',
        name: name('Featured', i),
      });
      createCampaign(e2e.app.server.ctx.db, { ownerId: owner.user!.id, name: name('Regular', i) });
    }
  });

  it('are the first of each list; the hydrated page shows every card without a mismatch', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'grid_member');

    const html = await renderedHtml(page.request, '/');
    const root = /<div id="root">([\s\S]*)<\/div>/.exec(html)?.[1] ?? '';
    expect(root.match(/<article/g)).toHaveLength(2 * SERVER_RENDERED_CARDS);
    // Newest first: the first cards are in the HTML, the oldest are left to the browser.
    for (const list of ['Featured', 'Regular'] as const) {
      expect(root).toContain(name(list, PER_LIST - 1));
      expect(root).not.toContain(name(list, 0));
    }
    // The heading counts the whole list (React marks the text's parts with empty comments).
    expect(root).toMatch(new RegExp(`\\((<!-- -->)?${PER_LIST}(<!-- -->)?\\)`));

    await page.goto('/');
    await waitUntilInteractive(page);
    const cards = page.getByRole('article');
    await expect.poll(() => cards.count()).toBe(2 * PER_LIST);
    await page.getByRole('article', { name: name('Featured', 0) }).waitFor();
    await page.getByRole('article', { name: name('Regular', 0) }).waitFor();
    expect(errors).toEqual([]);
  });

  // The cards left out keep their room until they arrive (CLS): More Servers, below the Featured cards, is
  // where the server's HTML put it, measured while the app's scripts are held back, once the browser has
  // rendered every card.
  it.each([
    [1280, 1800],
    [390, 2400],
  ])('keep their room at %i px wide: More Servers does not move when they arrive', async (width, height) => {
    const { page } = await e2e.newPage({ width, height });
    await e2e.signIn(page, 'grid_room');
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.js(\?.*)?$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    const more = page.getByRole('heading', { name: /^More Servers/ });
    const loaded = page.goto('/');
    await more.waitFor();
    expect(await page.getByRole('article').count()).toBe(2 * SERVER_RENDERED_CARDS);
    await page.evaluate('document.fonts.ready.then(() => true)');
    const before = (await more.boundingBox())!.y;
    release();
    await loaded;
    await waitUntilInteractive(page);
    await expect.poll(() => page.getByRole('article').count()).toBe(2 * PER_LIST);
    const after = (await more.boundingBox())!.y;
    // Without the room it moves down by the rows of the later cards (here 1 at 1280 px, 3 at 390 px: ≥ 262 px).
    // Hydration itself grows each featured card of the first rows by 2 px (before this room existed).
    expect(Math.abs(after - before)).toBeLessThan(32);
  });
});
