import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../shared/i18n/index.ts';
import { CATALOGUES, SERVER_NAMESPACES } from './catalogues.ts';
import { NOTIFICATION_EVENTS } from '../shared/notification-schemas.ts';

// The bot's and the API's catalogues (decision 051): every locale has exactly the English keys (plural
// forms by each language's own plural rules), with the same placeholders; every English key is used
// by the source, and every key the source names exists.

const SRC = new URL('..', import.meta.url).pathname;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*(\w+)\s*(?:,\s*\w+\s*)?\}\}/g;

function leaves(tree: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') out.set(key, value);
    else for (const [k, v] of leaves(value as object, key)) out.set(k, v);
  }
  return out;
}

/** Keys a locale must have: English's, with plural keys in that language's plural categories. */
function expectedKeys(english: Map<string, string>, locale: string): Set<string> {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of english.keys()) {
    const base = key.replace(PLURAL_SUFFIX, '');
    if (base === key) keys.add(key);
    else for (const category of categories) keys.add(`${base}_${category}`);
  }
  return keys;
}

const placeholders = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).sort();

/** The English text a (possibly plural) key is checked against: its `_other` form. */
function englishOf(english: Map<string, string>, key: string): string {
  return english.get(key) ?? english.get(key.replace(PLURAL_SUFFIX, '_other')) ?? '';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe.each(SERVER_NAMESPACES)('the %s catalogue', (namespace) => {
  const english = leaves(CATALOGUES.en[namespace]);

  it.each(SUPPORTED_LOCALES.filter((l) => l !== 'en'))(
    'is complete in %s, with the same placeholders',
    (locale) => {
      const translated = leaves(CATALOGUES[locale][namespace]);
      const expected = expectedKeys(english, locale);
      expect(
        [...expected].filter((k) => !translated.has(k)),
        'missing keys',
      ).toEqual([]);
      expect(
        [...translated.keys()].filter((k) => !expected.has(k)),
        'keys English does not have',
      ).toEqual([]);
      for (const [key, text] of translated) {
        expect(text.trim(), `${locale} ${key} is empty`).not.toBe('');
        expect(placeholders(text), `${locale} ${key}`).toEqual(placeholders(englishOf(english, key)));
      }
    },
  );
});

describe('the bot catalogue and the bot’s source', () => {
  const english = leaves(CATALOGUES.en.bot);
  const bases = new Set([...english.keys()].map((k) => k.replace(PLURAL_SUFFIX, '')));
  const source = sourceFiles(join(SRC, 'bot'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const groups = [...new Set([...bases].map((k) => k.split('.')[0]!))];
  /** Every quoted string of the bot's source that looks like a catalogue key (`'farm.join'`). */
  const named = new Set(
    [...source.matchAll(new RegExp(`['"\`]((?:${groups.join('|')})\\.[\\w.]+)['"\`]`, 'g'))].map(
      (m) => m[1]!,
    ),
  );

  it('names only keys that exist', () => {
    // Owner-notification event names ('campaign.resumed') look like keys but are wire values (decision 052).
    const events = new Set<string>(NOTIFICATION_EVENTS);
    expect([...named].filter((k) => !bases.has(k) && !events.has(k))).toEqual([]);
  });

  it('uses every key', () => {
    expect([...bases].filter((k) => !named.has(k))).toEqual([]);
  });
});

describe('the server catalogue and the API’s source', () => {
  // Per file (a stray quote cannot spill into the next), comments dropped (their apostrophes are no
  // quotes); literals joined by `+` are one sentence, and `${…}` is a value.
  const literals = sourceFiles(SRC)
    .filter((file) => !file.includes(`${join(SRC, 'sim')}/`) && !file.includes(`${join(SRC, 'i18n')}/`))
    .flatMap((file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|\s)\/\/\s.*$/gm, '$1');
      const joined: string[] = [];
      let end = -1;
      for (const m of code.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
        const text = (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(.)/g, '$1');
        if (end >= 0 && /^\s*\+\s*$/.test(code.slice(end, m.index))) joined[joined.length - 1] += text;
        else joined.push(text);
        end = m.index + m[0].length;
      }
      return joined;
    })
    .filter((text) => text.replace(/\$\{[^}]*\}/g, '').length >= 8);
  /** A source sentence as a pattern: its `${…}` values match anything. */
  const patterns = literals.map(
    (text) =>
      new RegExp(
        `^${text
          .split(/\$\{[^}]*\}/)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+?')}$`,
        's',
      ),
  );

  it('has every English sentence said somewhere in the source (no unused key)', () => {
    const unused = [...leaves(CATALOGUES.en.server)]
      .filter(([key]) => !key.startsWith('time.'))
      .filter(([, text]) => {
        const sample = text.replace(PLACEHOLDER, '7');
        return !patterns.some((p) => p.test(sample));
      })
      .map(([key]) => key);
    expect(unused).toEqual([]);
  });
});
