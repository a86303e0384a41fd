import { DEFAULT_LOCALE, resolveLocale, type Locale } from '../shared/i18n/index.ts';

// Pure (no store): the build script's login pages and the server's choice of one share it.

/** The best of our locales for an `Accept-Language` header ("de-DE,de;q=0.9,en;q=0.8" → de); English else. */
export function acceptLanguageLocale(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q.slice(2)), order };
    })
    .filter((r) => r.tag !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranked) {
    if (tag === '*' || /^en\b/i.test(tag)) return DEFAULT_LOCALE;
    const locale = resolveLocale(tag);
    if (locale !== DEFAULT_LOCALE) return locale;
  }
  return DEFAULT_LOCALE;
}
