import { z } from 'zod';

// Issue 31 item 2: a campaign may ask for older Discord accounts and for members of one language.
// Targeting narrows who can see and join a campaign; it never changes the price or the reward.
// Shared by the server (submit, Discover, join rules) and the web form. No server code here.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Languages an owner can ask for: Discord's locales grouped by language (the part before "-"). */
export const TARGET_LANGUAGES = {
  en: 'English',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  pt: 'Portuguese',
  it: 'Italian',
  nl: 'Dutch',
  pl: 'Polish',
  tr: 'Turkish',
  ru: 'Russian',
  uk: 'Ukrainian',
  sv: 'Swedish',
  da: 'Danish',
  no: 'Norwegian',
  fi: 'Finnish',
  cs: 'Czech',
  ro: 'Romanian',
  hu: 'Hungarian',
  el: 'Greek',
  bg: 'Bulgarian',
  lt: 'Lithuanian',
  hr: 'Croatian',
  ja: 'Japanese',
  ko: 'Korean',
  zh: 'Chinese',
  th: 'Thai',
  vi: 'Vietnamese',
  hi: 'Hindi',
  id: 'Indonesian',
} as const;
export type TargetLanguage = keyof typeof TARGET_LANGUAGES;

export function isTargetLanguage(value: unknown): value is TargetLanguage {
  return typeof value === 'string' && Object.hasOwn(TARGET_LANGUAGES, value);
}

/** A Discord locale ("en-US", "fr", "pt-BR", "es-419", "zh-TW", "nb") → its language, or null. */
export function languageOfLocale(locale: string | null | undefined): TargetLanguage | null {
  if (!locale) return null;
  const base = locale.toLowerCase().split('-')[0]!;
  // Discord's Norwegian locale is "no"; Bokmål "nb" counts as Norwegian too.
  const lang = base === 'nb' ? 'no' : base;
  return isTargetLanguage(lang) ? lang : null;
}

/** The most an owner may ask for (10 years: older Discord accounts are rare enough to mean "nobody"). */
export const MAX_TARGET_ACCOUNT_AGE_DAYS = 3650;

export const TARGETING_MESSAGES = {
  language: 'Please choose a language from the list',
  accountAge: `Minimum account age must be a whole number of days, at most ${MAX_TARGET_ACCOUNT_AGE_DAYS}`,
  /** A join refused because the member is outside the campaign's audience. */
  notForYou: 'This server is looking for other members (account age or language), so you cannot join it.',
} as const;

export function accountAgeAbovePlatformMessage(platformDays: number): string {
  return `Minimum account age must be more than ${platformDays} days (every member is already at least ${platformDays} days old)`;
}

/** What submit accepts (both fields optional; null or absent: anyone the platform allows). */
export const targetingSchema = z
  .object({
    minAccountAgeDays: z
      .number({ error: TARGETING_MESSAGES.accountAge })
      .int(TARGETING_MESSAGES.accountAge)
      .min(1, TARGETING_MESSAGES.accountAge)
      .max(MAX_TARGET_ACCOUNT_AGE_DAYS, TARGETING_MESSAGES.accountAge)
      .nullable()
      .optional(),
    language: z
      .string({ error: TARGETING_MESSAGES.language })
      .refine(isTargetLanguage, TARGETING_MESSAGES.language)
      .nullable()
      .optional(),
  })
  .strict();
export type TargetingInput = z.infer<typeof targetingSchema>;

/** What the rules know about a member: when their Discord account was made and their locale's language. */
export interface MemberProfile {
  accountCreatedAt: number;
  language: TargetLanguage | null;
}

/** Whether the member is in the campaign's audience (`now` in ms). */
export function memberMatches(
  target: { minAccountAgeDays: number | null; targetLanguage: string | null },
  member: MemberProfile,
  now: number,
): boolean {
  if (target.minAccountAgeDays !== null && now - member.accountCreatedAt < target.minAccountAgeDays * DAY_MS)
    return false;
  if (target.targetLanguage !== null && member.language !== target.targetLanguage) return false;
  return true;
}
