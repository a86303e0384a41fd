import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, formatMoneyText, isLocale, resolveLocale } from './index.js';

describe('resolveLocale', () => {
  it('maps Discord locales to ours and falls back to English', () => {
    expect(resolveLocale('es-ES')).toBe('es');
    expect(resolveLocale('es-419')).toBe('es');
    expect(resolveLocale('pt-BR')).toBe('pt-BR');
    expect(resolveLocale('fr')).toBe('fr');
    expect(resolveLocale('de')).toBe('de');
    expect(resolveLocale('tr')).toBe('tr');
    expect(resolveLocale('en-US')).toBe('en');
    expect(resolveLocale('en-GB')).toBe('en');
    expect(resolveLocale('ja')).toBe('en');
    expect(resolveLocale('')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
    expect(resolveLocale(null)).toBe('en');
  });

  it('knows its own locales only', () => {
    expect(isLocale('pt-BR')).toBe(true);
    expect(isLocale('pt')).toBe(false);
    expect(isLocale(3)).toBe(false);
  });
});

describe('money and dates by locale', () => {
  it('formats hundredths with the locale separators', () => {
    expect(formatMoney(1250, 'en')).toBe('12.50');
    expect(formatMoney(123450, 'en')).toBe('1,234.50');
    expect(formatMoney(123450, 'de')).toBe('1.234,50');
    expect(formatMoney(1250, 'tr')).toBe('12,50');
    expect(formatMoney(-200, 'en', { signed: true })).toBe('-2.00');
    expect(formatMoney(50, 'pt-BR', { signed: true })).toBe('+0,50');
  });

  it('reads wire amounts and falls back on junk', () => {
    expect(formatMoneyText('2', 'fr')).toBe('2,00');
    expect(formatMoneyText('abc', 'en')).toBe('0.00');
    expect(formatMoneyText(undefined, 'en', { fallback: '0.50' })).toBe('0.50');
  });

  it('formats dates per locale', () => {
    expect(formatDate('2025-10-19T12:00:00Z', 'en', 'longDate')).toBe('October 19, 2025');
    expect(formatDate('2025-10-19T12:00:00Z', 'de', 'longDate')).toBe('19. Oktober 2025');
    expect(formatDate('not a date', 'en')).toBe('');
  });
});
