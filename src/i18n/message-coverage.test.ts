import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CATALOGUES } from './catalogues.ts';

// Decision 061: every sentence the API or the server can send a member as `{ message }` is in the
// server catalogue, so it reaches them in their language. This scans the server's source for the
// places a message is made — the text of `new AppError(code, …)` and every `message: …` property —
// and follows a name to its text: a constant (`CAMPAIGN_NOT_FOUND`), an object's property
// (`JOIN_MESSAGES.noSlots`) or a function that returns a template (`inviteNotAllowedMessage(name)`).
// A new English sentence in any of those places fails here until it is catalogued (with its five
// translations: catalogues.test.ts holds them to English's keys) or listed below as not for members.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Files whose messages nobody reads in the app: start-up config, operator CLIs and endpoints, simulators. */
const NOT_SCANNED = [
  'src/sim/',
  'src/test/',
  'src/demo/',
  'src/ops/', // health, readiness and start-up answers: read by probes and proxies (and before i18n is up)
  'src/bot/', // its own `bot` catalogue, held by catalogues.test.ts
  'src/i18n/',
  'src/config.ts',
  'src/social/manage-social-tasks.ts',
  'src/http/metrics-route.ts',
];

/** Sentences members do not read, each with why it stays English. */
const NOT_FOR_MEMBERS: Record<string, string> = {
  'Invalid cursor': 'a developer error of the Discover query (decision 051)',
  '${name} must be given once': 'a developer error of the Discover query',
  'featured must be true or false': 'a developer error of the Discover query',
  'Search for at most ${DISCOVER_SEARCH_MAX} characters': 'a developer error: the search box stops at it',
  'limit must be a whole number from 1 to ${DISCOVER_MAX_PAGE_SIZE}': 'a developer error of the query',
  'Invalid Stripe signature': "read by Stripe's webhook delivery",
  'Missing Stripe-Signature header': "read by Stripe's webhook delivery",
  'Missing webhook payload': "read by Stripe's webhook delivery",
  'The server is busy right now. Please try again in a few seconds.':
    'the overload answer, pre-built and written straight to the socket: it must cost nothing',
  'Live updates are busy right now. The page will reconnect shortly.':
    'the live-events stream refusal: EventSource never shows a body',
  "We can't see you in ${serverName} yet — accept the invite, then try again.":
    'the web app recognises it by its English words to retry quietly (isNotInGuildYetMessage)',
};

const PLACEHOLDER = /\{\{\s*\w+\s*(?:,\s*\w+\s*)?\}\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function* leaves(tree: object, prefix = ''): Generator<[string, string]> {
  for (const [name, value] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (typeof value === 'string') yield [key, value];
    else if (value && typeof value === 'object') yield* leaves(value as object, key);
  }
}
const english = [...leaves(CATALOGUES.en.server)].filter(([key]) => !key.startsWith('time.'));
/** Catalogue texts as patterns (a placeholder matches any value) and as samples (each placeholder "7"). */
const cataloguePatterns = english.map(
  ([, text]) => new RegExp(`^${text.split(PLACEHOLDER).map(escape).join('(.+?)')}$`, 's'),
);
const catalogueSamples = english.map(([, text]) => text.replace(PLACEHOLDER, '7'));

/**
 * A source sentence (`${…}` for its values) is catalogued when its sample fits a catalogue text, or
 * a catalogue text fits it (one source template can stand for several keys, as the reward kinds).
 */
function isCatalogued(source: string): boolean {
  const parts = source.split(/\$\{[^}]*\}/);
  const sample = parts.join('7');
  if (cataloguePatterns.some((p) => p.test(sample))) return true;
  if (parts.join('').trim().length < 8) return false;
  const pattern = new RegExp(`^${parts.map(escape).join('.+?')}$`, 's');
  return catalogueSamples.some((text) => pattern.test(text));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** A string or template literal, or several joined by `+`, as one text (`${…}` kept). */
const LITERAL = String.raw`(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|` + '`(?:[^`\\\\]|\\\\.)*`)';
const JOINED = `${LITERAL}(?:\\s*\\+\\s*${LITERAL})*`;
function textOf(joined: string): string {
  return [...joined.matchAll(new RegExp(LITERAL, 'g'))]
    .map((m) => m[0].slice(1, -1).replace(/\\(.)/g, '$1'))
    .join('');
}

interface Site {
  file: string;
  text: string;
}

function scan() {
  const files = sourceFiles(path.join(root, 'src'))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter((file) => !NOT_SCANNED.some((prefix) => file.startsWith(prefix)));
  const code = new Map(
    files.map((file) => [
      file,
      readFileSync(path.join(root, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|\s)\/\/\s.*$/gm, '$1'),
    ]),
  );
  // Names a message can come from, across the source.
  const constants = new Map<string, string>();
  const properties = new Map<string, string>();
  const functions = new Map<string, string[]>();
  for (const text of code.values()) {
    for (const m of text.matchAll(new RegExp(`\\bconst (\\w+)(?::[^=\\n]+)?\\s*=\\s*(${JOINED})\\s*;`, 'g')))
      constants.set(m[1]!, textOf(m[2]!));
    for (const m of text.matchAll(/\bconst (\w+)(?::[^=\n]+)?\s*=\s*\{([\s\S]*?)\n\}/g)) {
      for (const p of m[2]!.matchAll(new RegExp(`(\\w+):\\s*(${JOINED})`, 'g')))
        properties.set(`${m[1]}.${p[1]}`, textOf(p[2]!));
    }
    for (const m of text.matchAll(/function (\w+)\([^)]*\)[^{]*\{([\s\S]*?)\n\}/g)) {
      for (const r of m[2]!.matchAll(new RegExp(`return\\s*\\(?\\s*(${JOINED})`, 'g')))
        functions.set(m[1]!, [...(functions.get(m[1]!) ?? []), textOf(r[1]!)]);
    }
    for (const m of text.matchAll(
      new RegExp(`\\bconst (\\w+)\\s*=\\s*\\([^)]*\\)[^=\\n]*=>\\s*\\(?\\s*(${JOINED})`, 'g'),
    ))
      functions.set(m[1]!, [...(functions.get(m[1]!) ?? []), textOf(m[2]!)]);
  }
  // The places a message is made: `new AppError(code, X)`, `message: X`, and the English text handed to
  // `localizeForRequest(X, req)` / `localizeMessage(X, locale)` by a body sent outside the error handler.
  const argument = `(?:(${JOINED})|(\\w+\\.\\w+)\\b(?!\\s*\\()|(\\w+)\\s*\\(|(\\w+)\\b)`;
  const sites: Site[] = [];
  const places = [
    String.raw`new AppError\(\s*[^,()]+,\s*`,
    String.raw`\bmessage:\s*`,
    String.raw`\blocalize(?:ForRequest|Message)\(\s*`,
  ];
  for (const [file, text] of code) {
    for (const place of places)
      for (const m of text.matchAll(new RegExp(place + argument, 'g'))) {
        const [, literal, property, call, name] = m;
        const texts = literal
          ? [textOf(literal)]
          : property
            ? [properties.get(property)]
            : call
              ? (functions.get(call) ?? [])
              : [constants.get(name!)];
        for (const found of texts) if (found !== undefined) sites.push({ file, text: found });
      }
  }
  // A ternary's two texts (`own ? 'Campaign already canceled' : 'Campaign not found'`).
  for (const [file, text] of code)
    for (const m of text.matchAll(
      new RegExp(`new AppError\\(\\s*[^,()]+,\\s*[\\w.]+\\s*\\?\\s*(${LITERAL})\\s*:\\s*(${LITERAL})`, 'g'),
    ))
      sites.push({ file, text: textOf(m[1]!) }, { file, text: textOf(m[2]!) });
  return sites;
}

describe('the messages the server sends members', () => {
  const sites = scan();

  it('are all in the server catalogue, or listed as not for members', () => {
    const missing = sites
      .filter(({ text }) => text.replace(/\$\{[^}]*\}/g, '').trim().length >= 4)
      .filter(({ text }) => !Object.hasOwn(NOT_FOR_MEMBERS, text) && !isCatalogued(text))
      .map(({ file, text }) => `${file}: ${text}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('lists as not for members only sentences the source still says', () => {
    const said = new Set(sites.map(({ text }) => text));
    expect(Object.keys(NOT_FOR_MEMBERS).filter((text) => !said.has(text))).toEqual([]);
  });

  it('finds messages however they are made (the scan itself works)', () => {
    const texts = new Set(sites.map(({ text }) => text));
    // A literal, a constant, an object's property, functions returning joined templates, a ternary.
    expect(texts).toContain('Task not found');
    expect(texts).toContain('Campaign not found.');
    expect(texts).toContain('This server has no member slots left');
    expect(texts).toContain(
      'Our bot may not create invites in ${guildName}. In Discord, open Invite People → Edit invite link, set Expire After: Never and paste the link below.',
    );
    expect(texts).toContain(
      'Only the owner of ${guildName} or members with the Manage Server permission can ${action} it. Sign in with the Discord account that owns or manages that server.',
    );
    expect(texts).toContain('Campaign already canceled');
    expect(texts).toContain('This access token lacks the "${scope}" scope');
    expect(texts).toContain('Too many sign-in attempts. Please wait a minute and try again.');
    expect(texts).toContain('Cross-site request refused');
    // A floor, not a count: the twins going (decisions 056, 057) removed duplicate sites (150 → 141).
    expect(sites.length).toBeGreaterThan(120);
    // And it tells a catalogued sentence from one that is not.
    expect(isCatalogued('You can claim your ${label} reward again in ${wait}.')).toBe(true);
    expect(isCatalogued('A sentence nobody has catalogued')).toBe(false);
  });
});
