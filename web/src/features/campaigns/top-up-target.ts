import { CAMPAIGN_KIND_RULES } from '@shared/campaign-kinds.ts';

// What the "Add members" button (top-up-dialog.tsx) and its lazily loaded dialog (top-up-form.tsx) share.

export interface TopUpTarget {
  id: string;
  name: string;
  kind: 'regular' | 'featured' | 'nobot';
}

export function costPerSlotCents(kind: TopUpTarget['kind']): number {
  return CAMPAIGN_KIND_RULES[kind === 'nobot' ? 'nobot' : 'regular'].costPerSlotCents;
}
