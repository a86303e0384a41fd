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

/** "3.5 members/day", "1 member/day", "0.2 members/day". */
export function paceText(pace: CampaignPace): string {
  if (pace.perDay === null) return 'No joins yet';
  const rounded = pace.perDay >= 10 ? Math.round(pace.perDay) : Math.round(pace.perDay * 10) / 10;
  return `${rounded} ${rounded === 1 ? 'member' : 'members'}/day`;
}

/** "under an hour", "~5 hours", "~1 day", "~12 days"; "—" when unknown. */
export function etaText(pace: CampaignPace): string {
  if (pace.etaDays === null) return '—';
  const hours = pace.etaDays * 24;
  if (hours < 1) return 'under an hour';
  if (hours < 24) {
    const h = Math.round(hours);
    return `~${h} ${h === 1 ? 'hour' : 'hours'}`;
  }
  const d = Math.round(pace.etaDays);
  return `~${d} ${d === 1 ? 'day' : 'days'}`;
}
