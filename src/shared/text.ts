import { z } from 'zod';

// One set of rules for every text a person types that we store or show to others (campaign names,
// social task titles, links), shared by the API and the web forms. No server code is imported here.
//
// - Unicode is normalised to NFC, runs of whitespace become one space, the ends are trimmed.
// - Control (Cc), format (Cf), surrogate (Cs) and line/paragraph separator code points are refused:
//   they hide text (zero-width characters), reverse it on screen (right-to-left overrides), or are
//   not text at all (NUL, lone surrogates that SQLite stores as ill-formed UTF-8). The one exception
//   is the zero-width joiner inside an emoji sequence (👩‍💻) and the tag characters of a flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
// - A display text needs at least two visible characters (grapheme clusters that are not blank).

/** Money on the wire: digits, optionally a dot and one or two decimals. No sign, no exponent, no "0b11". */
export const MONEY_STRING_PATTERN = /^\d+(\.\d{1,2})?$/;

export function isMoneyString(value: string): boolean {
  return MONEY_STRING_PATTERN.test(value);
}

// A ZWJ between two pictographs (the first may carry VS16 or a skin tone), and a flag's tag sequence.
const EMOJI_ZWJ =
  /(?<=\p{Extended_Pictographic}(?:\u{FE0F}|\p{Emoji_Modifier})?)\u200D(?=\p{Extended_Pictographic})/gu;
const FLAG_TAGS = /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
// Characters that draw nothing although they are not whitespace (Hangul fillers, braille blank, ...).
const BLANK = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{M}\u2800\u3164\u115F\u1160\uFFA0]*$/u;

/** The first refused code point (as "U+202E"), or null when the text is clean. */
export function findForbiddenCodePoint(text: string): string | null {
  const stripped = text.replace(EMOJI_ZWJ, '').replace(FLAG_TAGS, '');
  const match = FORBIDDEN.exec(stripped);
  if (!match) return null;
  const cp = match[0].codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Grapheme clusters that show something (not whitespace, not an invisible filler, not a lone mark). */
export function countVisibleCharacters(text: string): number {
  let count = 0;
  for (const { segment } of segmenter.segment(text)) if (!BLANK.test(segment)) count += 1;
  return count;
}

/** NFC, whitespace runs collapsed to one space, trimmed. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFC')
    .replace(/\p{White_Space}+/gu, ' ')
    .trim();
}

export interface TextMessages {
  required: string;
  tooShort: string;
  tooLong: string;
  /** Said when a refused code point is present. */
  invalid: string;
}

/**
 * A single-line display text (names, titles): normalised, no control/format/surrogate code points,
 * at least `min` visible characters (2 unless said), at most `max` UTF-16 units.
 */
export function displayTextSchema(messages: TextMessages, options: { max: number; min?: number }) {
  const min = options.min ?? 2;
  return z.string({ error: messages.required }).transform((raw, ctx) => {
    const bad = findForbiddenCodePoint(raw);
    const text = normalizeText(raw);
    if (text === '') ctx.addIssue({ code: 'custom', message: messages.required });
    else if (bad !== null) ctx.addIssue({ code: 'custom', message: messages.invalid });
    else if (countVisibleCharacters(text) < min) ctx.addIssue({ code: 'custom', message: messages.tooShort });
    else if (text.length > options.max) ctx.addIssue({ code: 'custom', message: messages.tooLong });
    else return text;
    return z.NEVER;
  });
}

/** A single-line technical text (links): normalised and free of refused code points; no visibility rule. */
export function plainTextSchema(
  messages: Pick<TextMessages, 'required' | 'tooLong' | 'invalid'>,
  options: { max: number },
) {
  return z.string({ error: messages.required }).transform((raw, ctx) => {
    const text = normalizeText(raw);
    if (text === '') ctx.addIssue({ code: 'custom', message: messages.required });
    else if (findForbiddenCodePoint(raw) !== null)
      ctx.addIssue({ code: 'custom', message: messages.invalid });
    else if (text.length > options.max) ctx.addIssue({ code: 'custom', message: messages.tooLong });
    else return text;
    return z.NEVER;
  });
}
