// Campaign quality on the wire (issue 31 item 1): what became of the members an owner paid for.
// Server-free: the web app imports it as is.

export type RetentionKey = 'd1' | 'endOfStay' | 'd7' | 'd30';

export interface ApiRetentionPoint {
  key: RetentionKey;
  /** "D+1", "End of stay", "D+7", "D+30". */
  label: string;
  /** Paid members old enough to be counted at this point. */
  eligible: number;
  /** Of those, still in the server at this point (an estimate where `basis` is "sampled"). */
  retained: number;
  /** retained / eligible, 0–1; null while nobody is eligible. */
  rate: number | null;
  /**
   * recorded: every leave up to this point is known (gateway events or the member sweep);
   * sampled: leaves after the stay are estimated from bot membership checks of a sample (`sampleSize`).
   */
  basis: 'recorded' | 'sampled';
  sampleSize: number;
}

export interface ApiQualityFigures {
  paidMembers: number;
  retention: ApiRetentionPoint[];
  removals: { earlyLeaves: number; kicks: number; bans: number; laterLeaves: number };
  /** Paid members by their Discord account's age when they were verified. */
  accountAge: { label: string; members: number }[];
  /** Coins paid per member still there at the end of the stay ("1.25"); null: nobody there yet. */
  costPerRetained: string | null;
}

export interface ApiCampaignQuality extends ApiQualityFigures {
  campaignId: string;
  name: string;
  /** Leaves are watched (campaigns with our bot); no-bot campaigns show joins and account ages only. */
  tracked: boolean;
}

/** GET /api/campaigns/quality: the owner's campaigns together, then each one. */
export interface ApiQualityOverview {
  summary: ApiQualityFigures;
  campaigns: ApiCampaignQuality[];
}

export const ACCOUNT_AGE_BUCKETS = [
  { label: 'Under 30 days', maxDays: 30 },
  { label: '30–90 days', maxDays: 90 },
  { label: '90 days–1 year', maxDays: 365 },
  { label: '1–3 years', maxDays: 3 * 365 },
  { label: '3+ years', maxDays: Infinity },
] as const;

/** When a Discord account was created, from its snowflake id (ms since the epoch). */
export function snowflakeCreatedAt(id: string): number | null {
  if (!/^\d{1,20}$/.test(id)) return null;
  return Number((BigInt(id) >> 22n) + 1_420_070_400_000n);
}
