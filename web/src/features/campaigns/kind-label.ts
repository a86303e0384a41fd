import { assertNever, type CampaignKind } from '@shared/campaign-kinds.ts';
import type { TFunction } from 'i18next';

/** A campaign kind's short name ("Regular", "Featured", "No-bot") in the app's language. */
export function campaignKindLabel(kind: CampaignKind, t: TFunction): string {
  switch (kind) {
    case 'regular':
      return t('campaigns.kinds.regular');
    case 'featured':
      return t('campaigns.kinds.featured');
    case 'nobot':
      return t('campaigns.kinds.nobot');
    default:
      return assertNever(kind);
  }
}
