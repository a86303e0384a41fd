import { CAMPAIGN_KINDS } from '@shared/campaign-kinds.ts';
import { describe, expect, it } from 'vitest';
import { i18n, loadLocale } from '../../lib/i18n.ts';
import { campaignKindLabel } from './kind-label.ts';

describe('campaign kind names', () => {
  it('are the spec’s words in English', () => {
    const t = i18n.getFixedT('en');
    expect(CAMPAIGN_KINDS.map((kind) => campaignKindLabel(kind, t))).toEqual([
      'Regular',
      'Featured',
      'No-bot',
    ]);
  });

  it('are translated, with the same word as the card badge for featured and no-bot', async () => {
    await loadLocale('tr');
    const t = i18n.getFixedT('tr');
    expect(campaignKindLabel('nobot', t)).toBe(t('campaigns.card.noBot'));
    expect(campaignKindLabel('featured', t)).toBe(t('campaigns.card.featured'));
    expect(campaignKindLabel('regular', t)).not.toBe('Regular');
  });
});
