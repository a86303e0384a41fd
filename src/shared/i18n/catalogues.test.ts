import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, NAMESPACES, SUPPORTED_LOCALES, type Locale } from './index.ts';

// Decision 050: every catalogue of every namespace is complete in every locale (the plural forms that
// locale's rules need, the same {{placeholders}} as English), and the web app uses every key of its
// catalogue and no key it lacks. (The bot and server namespaces' own source scan sits beside their code.)

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };
function flatten(tree: Tree, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else flatten(value, full, out);
  }
  return out;
}
const read = (locale: Locale, ns: string) =>
  flatten(JSON.parse(readFileSync(path.join(here, 'locales', locale, `${ns}.json`), 'utf8')) as Tree);
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/** A locale's keys as English's imply them: a plural base expands to that locale's categories. */
function expectedKeys(english: Map<string, string>, locale: Locale): Set<string> {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of english.keys()) {
    if (PLURAL.test(key)) for (const c of categories) keys.add(key.replace(PLURAL, `_${c}`));
    else keys.add(key);
  }
  return keys;
}

const namespaces = NAMESPACES.filter((ns) =>
  existsSync(path.join(here, 'locales', DEFAULT_LOCALE, `${ns}.json`)),
);

describe.each(namespaces)('the %s catalogues', (ns) => {
  const english = read(DEFAULT_LOCALE, ns);

  it.each(SUPPORTED_LOCALES)('%s has every key, no other, and no empty text', (locale) => {
    const catalogue = read(locale, ns);
    const expected = expectedKeys(english, locale);
    const missing = [...expected].filter((k) => !catalogue.has(k));
    const extra = [...catalogue.keys()].filter((k) => !expected.has(k));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const [key, text] of catalogue) expect(text.trim(), `${locale} ${key}`).not.toBe('');
  });

  it.each(SUPPORTED_LOCALES)('%s keeps the English placeholders', (locale) => {
    const catalogue = read(locale, ns);
    for (const [key, text] of catalogue) {
      const source = english.get(key) ?? english.get(key.replace(PLURAL, '_other')) ?? '';
      const wanted = placeholders(source).filter((p) => p !== 'count');
      expect(
        placeholders(text).filter((p) => p !== 'count'),
        `${locale} ${key}`,
      ).toEqual(wanted);
    }
  });
});

/** Every file under web/src (tests aside). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the web app and its catalogue', () => {
  // A key is written out whole where it is used: t('page.key') or a property named *Key ({ labelKey:
  // 'nav.discover' }), never built from pieces, so this scan sees every use.
  const used = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'web/src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bt\(\s*'([^']+)'/g)) used.add(m[1]!);
    for (const m of text.matchAll(/\b\w*Key:\s*'([a-z][\w-]*(?:\.[\w-]+)+)'/g)) used.add(m[1]!);
    for (const m of text.matchAll(/\bi18nKey="([a-z][\w-]*(?:\.[\w-]+)+)"/g)) used.add(m[1]!);
  }
  const english = read(DEFAULT_LOCALE, 'web');
  const bases = new Set([...english.keys()].map((k) => k.replace(PLURAL, '')));

  it('has every key the source uses', () => {
    expect([...used].filter((k) => !bases.has(k))).toEqual([]);
  });

  it('has no key the source does not use', () => {
    expect([...bases].filter((k) => !used.has(k))).toEqual([]);
  });

  it('finds the keys it scans for (the scan itself works)', () => {
    expect(used.has('nav.discover')).toBe(true);
    expect(used.has('common.loading')).toBe(true);
    expect(used.size).toBeGreaterThan(100);
  });
});
