import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import { CAMPAIGN_KIND_RULES, type CampaignKind } from '../shared/campaign-kinds.ts';
import { formatCents } from '../shared/money.ts';
import {
  ACCOUNT_AGE_BUCKETS,
  snowflakeCreatedAt,
  type ApiCampaignQuality,
  type ApiQualityFigures,
  type ApiQualityOverview,
  type ApiRetentionPoint,
  type RetentionKey,
} from '../shared/quality.ts';
import { qualityRepo, type CheckRow, type PaidMemberRow } from './quality-repo.ts';

// Campaign quality (issue 31 item 1): what became of the members an owner paid for, from what the
// product already knows — each paid join's verification, and its leave with the reason (gateway events
// with the Server Members intent; the member sweep within the stay without it, decision 036) — plus a
// sample of bot membership checks at D+7 and D+30 (retention-sampler.ts), since without the intent a
// leave after the stay may go unseen.

const DAY_MS = 86_400_000;
export const CAMPAIGN_NOT_FOUND = 'Campaign not found.';

interface Milestone {
  key: RetentionKey;
  label: string;
  /** The point after verification, per member (null: not counted for this member). */
  offset(m: PaidMemberRow): number | null;
  /** Days of the sampled check that covers leaves after the stay, if any. */
  sampledDays: number | null;
}

const MILESTONES: Milestone[] = [
  { key: 'd1', label: 'D+1', offset: () => DAY_MS, sampledDays: null },
  { key: 'endOfStay', label: 'End of stay', offset: (m) => m.minStayMs, sampledDays: null },
  { key: 'd7', label: 'D+7', offset: () => 7 * DAY_MS, sampledDays: 7 },
  { key: 'd30', label: 'D+30', offset: () => 30 * DAY_MS, sampledDays: 30 },
];

function retentionPoint(
  milestone: Milestone,
  members: PaidMemberRow[],
  checks: Map<string, boolean>,
  now: number,
): ApiRetentionPoint {
  let eligible = 0;
  let gone = 0;
  let present = 0;
  let absent = 0;
  for (const m of members) {
    const offset = milestone.offset(m);
    if (offset === null || m.verifiedAt + offset > now) continue;
    eligible += 1;
    if (m.hasLeft && m.leftAt !== null && m.leftAt <= m.verifiedAt + offset) {
      gone += 1;
      continue;
    }
    if (milestone.sampledDays !== null) {
      const check = checks.get(`${m.joinId}:${milestone.sampledDays}`);
      if (check === true) present += 1;
      else if (check === false) absent += 1;
    }
  }
  const stillThere = eligible - gone;
  const sampleSize = present + absent;
  // Members checked stand for those not checked: the sample's share present, applied to everyone not
  // known to have left. With nothing sampled, what was recorded is all there is.
  const retained = sampleSize > 0 ? Math.round((stillThere * present) / sampleSize) : stillThere;
  return {
    key: milestone.key,
    label: milestone.label,
    eligible,
    retained,
    rate: eligible > 0 ? retained / eligible : null,
    basis: milestone.sampledDays !== null && sampleSize > 0 ? 'sampled' : 'recorded',
    sampleSize,
  };
}

function figures(
  members: PaidMemberRow[],
  checks: Map<string, boolean>,
  costPerSlot: (m: PaidMemberRow) => number,
  now: number,
): ApiQualityFigures {
  const retention = MILESTONES.map((milestone) => retentionPoint(milestone, members, checks, now));
  const removals = { earlyLeaves: 0, kicks: 0, bans: 0, laterLeaves: 0 };
  const ages = ACCOUNT_AGE_BUCKETS.map((b) => ({ label: b.label, members: 0 }));
  let spentCents = 0;
  for (const m of members) {
    if (m.hasLeft) {
      if (m.leftReason === 'kick') removals.kicks += 1;
      else if (m.leftReason === 'ban') removals.bans += 1;
      else if (m.minStayMs !== null && m.leftAt !== null && m.leftAt < m.verifiedAt + m.minStayMs)
        removals.earlyLeaves += 1;
      else removals.laterLeaves += 1;
    }
    const created = snowflakeCreatedAt(m.discordId);
    if (created !== null) {
      const days = (m.verifiedAt - created) / DAY_MS;
      const bucket = ACCOUNT_AGE_BUCKETS.findIndex((b) => days < b.maxDays);
      ages[bucket === -1 ? ages.length - 1 : bucket]!.members += 1;
    }
    // An early leaver's slot went back to the campaign (record-leave.ts): the owner did not pay for them.
    if (!m.penalized) spentCents += costPerSlot(m);
  }
  const endOfStay = retention.find((r) => r.key === 'endOfStay')!;
  return {
    paidMembers: members.length,
    retention,
    removals,
    accountAge: ages,
    costPerRetained: endOfStay.retained > 0 ? formatCents(Math.round(spentCents / endOfStay.retained)) : null,
  };
}

function checkMap(rows: CheckRow[]): Map<string, boolean> {
  return new Map(rows.map((c) => [`${c.joinId}:${c.milestoneDays}`, c.present]));
}

/** Every campaign of the owner, and all of them together. */
export async function qualityOverview(ctx: AppContext, ownerId: string): Promise<ApiQualityOverview> {
  const repo = qualityRepo(ctx.store.read);
  const [campaigns, members, checks] = await Promise.all([
    repo.ownedCampaigns(ownerId),
    repo.paidMembers(ownerId),
    repo.checks(ownerId),
  ]);
  const now = ctx.clock.now();
  const byCampaign = new Map<string, PaidMemberRow[]>();
  for (const m of members) byCampaign.set(m.campaignId, [...(byCampaign.get(m.campaignId) ?? []), m]);
  const kindOf = new Map(campaigns.map((c) => [c.id, c.kind]));
  const costPerSlot = (m: PaidMemberRow) =>
    CAMPAIGN_KIND_RULES[kindOf.get(m.campaignId) ?? 'regular'].costPerSlotCents;
  const map = checkMap(checks);
  return {
    summary: figures(members, map, costPerSlot, now),
    campaigns: campaigns.map((c) => ({
      campaignId: c.id,
      name: c.name,
      tracked: CAMPAIGN_KIND_RULES[c.kind].needsBot,
      ...figures(byCampaign.get(c.id) ?? [], map, costPerSlot, now),
    })),
  };
}

/** One campaign of the owner's; 404 for anyone else's (as if it did not exist). */
export async function campaignQuality(
  ctx: AppContext,
  ownerId: string,
  campaignId: string,
): Promise<ApiCampaignQuality> {
  const { campaign, members, checks } = await load(ctx, ownerId, campaignId);
  const cost = CAMPAIGN_KIND_RULES[campaign.kind].costPerSlotCents;
  return {
    campaignId: campaign.id,
    name: campaign.name,
    tracked: CAMPAIGN_KIND_RULES[campaign.kind].needsBot,
    ...figures(members, checkMap(checks), () => cost, ctx.clock.now()),
  };
}

async function load(ctx: AppContext, ownerId: string, campaignId: string) {
  const repo = qualityRepo(ctx.store.read);
  const [campaign] = await repo.ownedCampaigns(ownerId, campaignId);
  if (!campaign) throw new AppError('not_found', CAMPAIGN_NOT_FOUND);
  const [members, checks] = await Promise.all([
    repo.paidMembers(ownerId, campaignId),
    repo.checks(ownerId, campaignId),
  ]);
  return { campaign: campaign as { id: string; name: string; kind: CampaignKind }, members, checks };
}

const csvField = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/**
 * The campaign's paid members as CSV, one row each: when verified, the account's age then, what
 * became of them and the sampled checks. No Discord ids or names: the owner sees them in their server.
 */
export async function campaignQualityCsv(
  ctx: AppContext,
  ownerId: string,
  campaignId: string,
): Promise<string> {
  const { members, checks } = await load(ctx, ownerId, campaignId);
  const map = checkMap(checks);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const check = (m: PaidMemberRow, days: number) => {
    const c = map.get(`${m.joinId}:${days}`);
    return c === undefined ? null : c ? 'present' : 'absent';
  };
  const lines = [
    'member,verified_at,account_age_days,status,left_at,left_reason,days_stayed,early_leave,check_d7,check_d30',
    ...members.map((m, i) => {
      const created = snowflakeCreatedAt(m.discordId);
      const early =
        m.hasLeft && m.minStayMs !== null && m.leftAt !== null && m.leftAt < m.verifiedAt + m.minStayMs;
      return [
        i + 1,
        iso(m.verifiedAt),
        created === null ? null : Math.floor((m.verifiedAt - created) / DAY_MS),
        m.hasLeft ? 'left' : 'in server',
        iso(m.leftAt),
        m.leftReason,
        m.hasLeft && m.leftAt !== null ? ((m.leftAt - m.verifiedAt) / DAY_MS).toFixed(1) : null,
        early ? 'yes' : 'no',
        check(m, 7),
        check(m, 30),
      ]
        .map(csvField)
        .join(',');
    }),
  ];
  return lines.join('\n') + '\n';
}
