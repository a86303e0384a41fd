import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';

// Issue 28 item 1: on a phone a toast (and, for the spec's 1,000,000 ms removal delay, the dismissed toast
// zag keeps mounted with its pointer-catching "ghost") must never cover the bottom tab bar.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

const BAR = '[data-testid="bottom-bar"]';
const bar = (page: Page) => page.locator(BAR);

/** The element a finger at the centre of `selector`'s n-th match would touch is that element (or inside it). */
async function hitTarget(page: Page, selector: string, index: number): Promise<boolean> {
  return page.evaluate(
    ([sel, i]) => {
      const doc = (globalThis as unknown as { document: DocumentLike }).document;
      const target = doc.querySelectorAll(sel)[i];
      if (!target) return false;
      const r = target.getBoundingClientRect();
      const hit = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && target.contains(hit);
    },
    [selector, index] as const,
  );
}

interface RectLike {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface ElementLike {
  getBoundingClientRect(): RectLike;
  contains(other: unknown): boolean;
}
interface DocumentLike {
  querySelectorAll(sel: string): ArrayLike<ElementLike>;
  elementFromPoint(x: number, y: number): unknown;
}

/** Taps (a real mouse click at the centre) every bottom-bar item, checking each is what the finger hits. */
async function tapEveryTab(page: Page, moment: string): Promise<void> {
  const links = bar(page).locator('a');
  const count = await links.count();
  expect(count, 'bottom-bar links').toBe(4);
  for (let i = 0; i < count; i += 1) {
    const link = links.nth(i);
    const href = (await link.getAttribute('href')) ?? '';
    expect(await hitTarget(page, `${BAR} a`, i), `${moment}: ${href} is on top`).toBe(true);
    const box = await link.boundingBox();
    if (!box) throw new Error(`${href} has no box`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL((url) => url.pathname === href);
    await expect.poll(() => link.getAttribute('aria-current')).toBe('page');
  }
  const more = bar(page).getByRole('button', { name: 'More' });
  expect(await hitTarget(page, `${BAR} button`, 0), `${moment}: More is on top`).toBe(true);
  const box = await more.boundingBox();
  if (!box) throw new Error('More has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const sheet = page.getByRole('dialog', { name: 'More' });
  await sheet.waitFor();
  await page.keyboard.press('Escape');
  await sheet.waitFor({ state: 'hidden' });
}

describe('toasts on a phone', () => {
  it('never cover or disable the bottom tab bar: right after a toast and once it has closed', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'phone_toaster', { open: false });
    await page.goto('/daily');
    await waitUntilInteractive(page);
    await page.getByRole('button', { name: 'Claim Hourly Reward' }).click();
    const toast = page.locator('[data-scope="toast"][data-part="root"]');
    await page.getByText('Hourly Reward Claimed!').waitFor();

    // A success toast looks like one (the success type: green, with its check icon), not a grey box.
    expect(await toast.getAttribute('data-type')).toBe('success');
    // The visible toast sits above the bar, not over it.
    const barBox = await bar(page).boundingBox();
    if (!barBox) throw new Error('no bar');
    // (Polled: the toast slides in from below.)
    await expect
      .poll(async () => {
        const box = await toast.boundingBox();
        return box ? box.y + box.height <= barBox.y && box.x >= 0 && box.x + box.width <= 390 : box;
      })
      .toBe(true);

    await tapEveryTab(page, 'while the toast shows');

    // The toast closes after its 5 s and stays mounted for the spec's removal delay: still inert.
    await page
      .locator('[data-scope="toast"][data-part="root"][data-state="closed"]')
      .waitFor({ state: 'attached' });
    expect(await toast.count()).toBe(1);
    await tapEveryTab(page, 'after the toast closed');

    // Nothing of the toast region catches a point anywhere on the page any more.
    const caught = await page.evaluate(() => {
      const doc = (
        globalThis as unknown as { document: DocumentLike & { querySelector(s: string): ElementLike } }
      ).document;
      const region = doc.querySelector('[data-scope="toast"][data-part="group"]');
      const hits: string[] = [];
      for (let y = 5; y < 844; y += 20)
        for (let x = 5; x < 390; x += 20)
          if (region?.contains(doc.elementFromPoint(x, y))) hits.push(`${x},${y}`);
      return hits;
    });
    expect(caught).toEqual([]);
    expect(errors).toEqual([]);
  });
});
