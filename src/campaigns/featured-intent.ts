import type { AppContext } from '../context.ts';
import type { DataStore } from '../db/engine.ts';
import type { Campaign } from '../db/schema.ts';
import { MINUTE } from '../clock.ts';
import { campaignsRepo } from './campaigns-repo.ts';

// POST /api/servers with isFeaturedIntent makes an unfunded row (0 slots) that the web app promotes
// right away; promote is where the 100 coins are paid. A row that is never promoted must not pile up:
// it never shows in My Campaigns or Discover, promote refuses it once it is older than this, and a
// periodic job deletes it.

export const FEATURED_INTENT_TTL_MS = 10 * MINUTE;
export const FEATURED_INTENT_EXPIRED = 'This featured request has expired. Please submit the server again.';

/** A featured intent that was never promoted (no slots were ever bought, never featured). */
export function isUnpromotedIntent(campaign: Pick<Campaign, 'initialMemberSlots' | 'featuredAt'>): boolean {
  return campaign.initialMemberSlots === 0 && campaign.featuredAt === null;
}

export function isExpiredIntent(
  campaign: Pick<Campaign, 'initialMemberSlots' | 'featuredAt' | 'createdAt'>,
  now: number,
): boolean {
  return isUnpromotedIntent(campaign) && now - campaign.createdAt >= FEATURED_INTENT_TTL_MS;
}

/** Deletes unpromoted intents older than the TTL; returns how many. */
export async function pruneExpiredIntents(store: DataStore, now: number): Promise<number> {
  return store.transaction((tx) => campaignsRepo(tx).pruneUnpromotedIntents(now - FEATURED_INTENT_TTL_MS));
}

export async function pruneExpiredIntentsJob(ctx: AppContext): Promise<void> {
  const count = await pruneExpiredIntents(ctx.store, ctx.clock.now());
  if (count > 0) ctx.logger.info('expired featured intents deleted', { count });
}
