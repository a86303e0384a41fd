import type { Locale } from '@shared/i18n/index.ts';
import type { TFunction } from 'i18next';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Younger than this, a campaign's pace says nothing yet (one early join would read as dozens a day). */
const MIN_AGE_MS = 60 * 60 * 1000;

export interface CampaignPace {
  /** Members joined per day since the campaign started; null before the first join. */
  perDay: number | null;
  /** Days until the last slot fills at that pace; null when unknown (no joins yet). */
  etaDays: number | null;
}

/** Pace and ETA of a campaign from its slots and start (My Campaigns cards). */
export function campaignPace(
  campaign: { initialMemberSlots: number; membersRemaining: number; createdAt: string },
  now: number,
): CampaignPace {
  const total = Math.max(campaign.initialMemberSlots, campaign.membersRemaining);
  const filled = total - campaign.membersRemaining;
  const started = Date.parse(campaign.createdAt);
  if (filled <= 0 || Number.isNaN(started)) return { perDay: null, etaDays: null };
  const ageMs = Math.max(now - started, MIN_AGE_MS);
  const perDay = (filled / ageMs) * DAY_MS;
  return { perDay, etaDays: campaign.membersRemaining / perDay };
}

/** "3.5 members/day", "1 member/day", "0.2 members/day" (in the locale's words and digits). */
export function paceText(pace: CampaignPace, t: TFunction, locale: Locale): string {
  if (pace.perDay === null) return t('campaigns.card.paceNone');
  const rounded = pace.perDay >= 10 ? Math.round(pace.perDay) : Math.round(pace.perDay * 10) / 10;
  const rate = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(rounded);
  return t('campaigns.card.perDay', { count: rounded, rate });
}

/** "under an hour", "~5 hours", "~1 day", "~12 days"; "—" when unknown. */
export function etaText(pace: CampaignPace, t: TFunction): string {
  if (pace.etaDays === null) return '—';
  const hours = pace.etaDays * 24;
  if (hours < 1) return t('campaigns.card.etaUnderHour');
  if (hours < 24) return t('campaigns.card.etaHours', { count: Math.round(hours) });
  return t('campaigns.card.etaDays', { count: Math.round(pace.etaDays) });
}
