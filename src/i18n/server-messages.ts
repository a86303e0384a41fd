import type { IncomingHttpHeaders } from 'node:http';
import { acceptLanguageLocale } from './accept-language.ts';
import { CATALOGUES } from './catalogues.ts';
import { serverT, type Locale } from './index.ts';

// The API's `{ message }` texts in the reader's language (decision 051). Services keep throwing
// AppError with the English sentence — the product spec's words, what tests and logs read — and the
// English `server` catalogue holds each such sentence as a template under a key ("You need
// {{coins}} coins to submit this server. You have {{balance, coins}} coins."). At the edge (the API's
// error handler, the bot's replies) a sentence is matched against those templates once, its values
// taken back out, and the key rendered in the reader's locale with them. English goes out untouched.
// A sentence with no template (a developer-facing one, a new one not catalogued yet) stays English;
// server-messages.test.ts fails on a catalogued sentence the source no longer says.

/** `{{name}}` or `{{name, format}}` in a catalogue text. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*(?:,\s*\w+\s*)?\}\}/g;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

interface Template {
  key: string;
  pattern: RegExp;
  names: string[];
  /** Literal characters: the more, the more specific (tried first). */
  weight: number;
}

function* leaves(tree: object, prefix = ''): Generator<[string, string]> {
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') yield [key, value];
    else if (value && typeof value === 'object') yield* leaves(value as object, key);
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(key: string, text: string): Template {
  const names: string[] = [];
  let source = '';
  let weight = 0;
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER)) {
    const literal = text.slice(last, match.index);
    source += escapeRegExp(literal);
    weight += literal.length;
    names.push(match[1]!);
    source += '(.+?)';
    last = match.index + match[0].length;
  }
  const tail = text.slice(last);
  source += escapeRegExp(tail);
  weight += tail.length;
  return { key, pattern: new RegExp(`^${source}$`, 's'), names, weight };
}

function buildIndex(): { exact: Map<string, string>; templates: Template[] } {
  const exact = new Map<string, string>();
  const templates: Template[] = [];
  for (const [leaf, text] of leaves(CATALOGUES.en.server)) {
    const key = leaf.replace(PLURAL_SUFFIX, '');
    if (text.match(PLACEHOLDER)) templates.push(compile(key, text));
    else exact.set(text, key);
  }
  templates.sort((a, b) => b.weight - a.weight);
  return { exact, templates };
}

const index = buildIndex();

/** The catalogue key and values of an English API message, or null when it is not catalogued. */
export function findServerMessage(
  message: string,
): { key: string; params: Record<string, string | number> } | null {
  const key = index.exact.get(message);
  if (key !== undefined) return { key, params: {} };
  for (const template of index.templates) {
    const match = template.pattern.exec(message);
    if (!match) continue;
    const params: Record<string, string | number> = {};
    template.names.forEach((name, i) => {
      const value = match[i + 1]!;
      params[name] = name === 'count' ? Number(value) : value;
    });
    return { key: template.key, params };
  }
  return null;
}

/** An English API message (an AppError's text) in `locale`; English, or an uncatalogued text, as it is. */
export function localizeMessage(message: string, locale: Locale): string {
  if (locale === 'en') return message;
  const found = findServerMessage(message);
  if (!found) return message;
  return serverT(locale)(found.key, found.params);
}

/**
 * An English message in the language the request's Accept-Language asks for: for the `{ message }`
 * bodies sent outside the error handler (rate limiters, the cross-site guard, the access-token guard),
 * which answer before any session or store is read (decision 061).
 */
export function localizeForRequest(message: string, req: { headers: IncomingHttpHeaders }): string {
  return localizeMessage(message, acceptLanguageLocale(req.headers['accept-language']));
}
