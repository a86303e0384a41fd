import { ACCOUNT_AGE_BUCKETS, type ApiRetentionPoint } from '@shared/quality.ts';
import type { TFunction } from 'i18next';

// The quality figures arrive with English labels (the CSV export and the API keep them); the web app
// shows its own words for them: a retention point by its key, an account-age bucket by its place in
// ACCOUNT_AGE_BUCKETS (the server builds the list from that table, in its order).

/** "D+1", "End of stay", "D+7", "D+30" in the app's language. */
export function retentionPointLabel(point: Pick<ApiRetentionPoint, 'key' | 'label'>, t: TFunction): string {
  switch (point.key) {
    case 'd1':
      return t('campaigns.quality.points.d1');
    case 'endOfStay':
      return t('campaigns.quality.points.endOfStay');
    case 'd7':
      return t('campaigns.quality.points.d7');
    case 'd30':
      return t('campaigns.quality.points.d30');
    default:
      return point.label;
  }
}

/** The account-age buckets' names, in ACCOUNT_AGE_BUCKETS' order. */
const AGE_BUCKET_KEYS = [
  { labelKey: 'campaigns.quality.ages.under30Days' },
  { labelKey: 'campaigns.quality.ages.days30To90' },
  { labelKey: 'campaigns.quality.ages.days90To1Year' },
  { labelKey: 'campaigns.quality.ages.years1To3' },
  { labelKey: 'campaigns.quality.ages.years3Plus' },
] as const satisfies readonly { labelKey: string }[];

/** "Under 30 days", "1–3 years"… in the app's language; an unknown bucket as the server named it. */
export function accountAgeLabel(label: string, t: TFunction): string {
  const index = ACCOUNT_AGE_BUCKETS.findIndex((bucket) => bucket.label === label);
  const entry = AGE_BUCKET_KEYS[index];
  return entry ? t(entry.labelKey) : label;
}
