import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { submitNoBotSchema, submitServerSchema } from './campaign-schemas.ts';
import { newSocialTaskSchema } from '../social/manage-social-tasks.ts';
import { countVisibleCharacters, findForbiddenCodePoint } from './text.ts';

// Every text field a person fills in, with the rest of its object valid, so the field decides.
const VALID_LINK = 'https://discord.gg/abc123';
const FIELDS: {
  name: string;
  parse: (text: string) => { success: boolean; data?: unknown };
  pick: (data: unknown) => string;
  display: boolean;
}[] = [
  {
    name: 'campaign name (POST /api/servers)',
    parse: (text) => submitServerSchema.safeParse({ name: text, inviteLink: VALID_LINK, coinReward: '5' }),
    pick: (d) => (d as { name: string }).name,
    display: true,
  },
  {
    name: 'no-bot campaign name (POST /api/servers/no-bot)',
    parse: (text) => submitNoBotSchema.safeParse({ name: text, inviteLink: VALID_LINK, memberCount: '5' }),
    pick: (d) => (d as { name: string }).name,
    display: true,
  },
  {
    name: 'invite link',
    parse: (text) => submitServerSchema.safeParse({ name: 'Fine Name', inviteLink: text, coinReward: '5' }),
    pick: (d) => (d as { inviteLink: string }).inviteLink,
    display: false,
  },
  {
    name: 'social task title',
    parse: (text) =>
      newSocialTaskSchema.safeParse({ platform: 'youtube', title: text, url: 'https://youtube.com/@x' }),
    pick: (d) => (d as { title: string }).title,
    display: true,
  },
  {
    name: 'social task url',
    parse: (text) => newSocialTaskSchema.safeParse({ platform: 'youtube', title: 'Subscribe', url: text }),
    pick: (d) => (d as { url: string }).url,
    display: false,
  },
];

// Arbitrary Unicode, lone surrogates included, salted with the characters attacks use.
const NASTY = [
  '\u200B',
  '\u200D',
  '\u202E',
  '\u2066',
  '\u0000',
  '\uD800',
  '\uDFFF',
  '\uFEFF',
  '\u00AD',
  '\u3164',
  '\u2800',
  '\u0301',
  ' ',
  '\n',
  '👩',
  '💻',
  'a',
  'é',
];
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...NASTY), maxLength: 12 }),
  fc
    .tuple(
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom(...NASTY),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
    )
    .map(([a, b, c]) => a + b + c),
  fc.constant(VALID_LINK),
  fc.constant('https://discord.gg/abc123?x=\u202E'),
);

describe.each(FIELDS)('$name over arbitrary Unicode', ({ parse, pick, display }) => {
  it('accepts only clean, NFC, well-formed text (with two visible characters when shown to people)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const result = parse(text);
        if (!result.success) return;
        const value = pick(result.data);
        expect(value).toBe(value.normalize('NFC'));
        expect(/\p{Cs}/u.test(value)).toBe(false);
        expect(findForbiddenCodePoint(value)).toBeNull();
        expect(value).toBe(value.trim());
        if (display) expect(countVisibleCharacters(value)).toBeGreaterThanOrEqual(2);
      }),
      { numRuns: 400 },
    );
  });
});

describe('name rules by example', () => {
  const name = (text: string) =>
    submitServerSchema.safeParse({ name: text, inviteLink: VALID_LINK, coinReward: '5' });

  it('refuses zero-width-only names, right-to-left overrides, NUL and lone surrogates', () => {
    for (const bad of [
      '\u200B\u200B\u200B',
      'Safe\u202EServer',
      'A\u0000B',
      'Na\uD800me',
      '\u3164\u3164',
      'x\u200B',
    ]) {
      expect(name(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps emoji sequences joined with ZWJ, and normalises to NFC', () => {
    const coder = name('👩‍💻 Coders');
    expect(coder.success).toBe(true);
    expect(coder.data?.name).toBe('👩‍💻 Coders');
    expect(name('🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scots').success).toBe(true);
    expect(name('Cafe\u0301  Club').data?.name).toBe('Caf\u00E9 Club');
    expect(name('a\u200D').success).toBe(false);
  });
});
