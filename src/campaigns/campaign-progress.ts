import type { AppContext } from '../context.ts';
import { listMyCampaigns } from './list-campaigns.ts';
import { campaignsRepo } from './campaigns-repo.ts';

/** One campaign's progress as the owner follows it (the bot's /campaign). */
export interface CampaignProgress {
  id: string;
  name: string;
  isFeatured: boolean;
  noBot: boolean;
  /** Member slots bought. */
  slots: number;
  /** Slots taken now (a slot given back after an early leave is open again). */
  filled: number;
  remaining: number;
  /** Joins via the website, as My Campaigns counts them. */
  joinCount: number;
  /** Members who left before their minimum stay (and were charged for it). */
  earlyLeaves: number;
  complete: boolean;
  /** Our bot was removed from the guild: the campaign is paused. */
  paused: boolean;
}

/**
 * The owner's campaigns that were not canceled, active ones first, then completed ones, newest
 * first within each: built from listMyServers and countJoins, the functions behind the Dashboard and
 * My Campaigns, so the numbers match the website.
 */
export async function listCampaignProgress(ctx: AppContext, userId: string): Promise<CampaignProgress[]> {
  const mine = (await listMyCampaigns(ctx, userId)).filter((s) => !s.canceled);
  const ids = mine.map((s) => s.id);
  const repo = campaignsRepo(ctx.store.read);
  const joins = await repo.countJoins(ids);
  const early = await repo.countEarlyLeaves(ids);
  const progress = mine.map((s) => ({
    id: s.id,
    name: s.name,
    isFeatured: s.isFeatured,
    noBot: s.serverId === null,
    slots: s.initialMemberSlots,
    filled: Math.max(0, s.initialMemberSlots - s.membersRemaining),
    remaining: s.membersRemaining,
    joinCount: joins.get(s.id) ?? 0,
    earlyLeaves: early.get(s.id) ?? 0,
    complete: s.membersRemaining <= 0,
    paused: s.botRemoved,
  }));
  // Stable sort: listMyServers is newest first already.
  return progress.sort((a, b) => Number(a.complete) - Number(b.complete));
}
