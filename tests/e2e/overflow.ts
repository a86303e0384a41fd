import type { Page } from 'playwright-core';

// Runs in the page (a script string: this tree's tsconfig has no DOM types). One check for the signed-in
// screens and their dialogs (i18n.test.ts, decision 050) and the signed-out pages (decision 061).
const OVERFLOW_SCRIPT = `(() => {
  const found = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    // Name the innermost elements that stick out past the screen's right edge.
    const out = Array.from(document.body.querySelectorAll('*')).filter(
      (el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && el.children.length === 0,
    );
    const names = out.slice(0, 3).map((el) => el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 30) + '"');
    found.push('document ' + doc.scrollWidth + ' > ' + doc.clientWidth + ': ' + names.join(', '));
  }
  for (const el of Array.from(document.querySelectorAll('main *, header *, nav *, footer *, [role="dialog"] *'))) {
    const ownText = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    // Visually hidden texts (screen readers only) sit in a 1 px box on purpose.
    if (!ownText || el.clientWidth <= 1) continue;
    const style = getComputedStyle(el);
    if (style.textOverflow === 'ellipsis' || style.webkitLineClamp !== 'none') continue;
    if (style.display === 'inline') continue;
    if (el.scrollWidth > el.clientWidth + 1)
      found.push(el.tagName.toLowerCase() + ' "' + el.textContent.trim().slice(0, 40) + '" ' + el.scrollWidth + ' > ' + el.clientWidth);
  }
  return found;
})()`;

/** Texts wider than their box (ellipsis and line clamps are meant to cut), and the page wider than the screen. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(OVERFLOW_SCRIPT);
}
