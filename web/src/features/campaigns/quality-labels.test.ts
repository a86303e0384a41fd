import { ACCOUNT_AGE_BUCKETS } from '@shared/quality.ts';
import { describe, expect, it } from 'vitest';
import { i18n, switchLocale } from '../../lib/i18n.ts';
import { accountAgeLabel, retentionPointLabel } from './quality-labels.ts';

// The quality figures' English labels come from the server (and its CSV); the web app's words for them
// come from the catalogue: in English they must be the same words, in another language its own.

const POINTS = [
  { key: 'd1', label: 'D+1' },
  { key: 'endOfStay', label: 'End of stay' },
  { key: 'd7', label: 'D+7' },
  { key: 'd30', label: 'D+30' },
] as const;

describe('quality labels', () => {
  it('say in English exactly what the server says', async () => {
    await switchLocale('en');
    const t = i18n.t.bind(i18n);
    for (const bucket of ACCOUNT_AGE_BUCKETS) expect(accountAgeLabel(bucket.label, t)).toBe(bucket.label);
    for (const point of POINTS) expect(retentionPointLabel(point, t)).toBe(point.label);
  });

  it('are translated in another language, and an unknown label is shown as it came', async () => {
    await switchLocale('de');
    const t = i18n.t.bind(i18n);
    try {
      expect(accountAgeLabel('Under 30 days', t)).toBe('Unter 30 Tage');
      expect(retentionPointLabel({ key: 'endOfStay', label: 'End of stay' }, t)).toBe('Ende der Mindestzeit');
      expect(accountAgeLabel('Over 9000 days', t)).toBe('Over 9000 days');
    } finally {
      await switchLocale('en');
    }
  });
});
