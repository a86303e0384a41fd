import type { AppContext } from '../context.ts';
import { DiscordApiError } from '../discord/discord-api.ts';
import { errorMessage } from '../ops/error-text.ts';
import { qualityRepo } from './quality-repo.ts';

// Campaign quality's sampled checks (issue 31 item 1). Leaves within the stay are always seen (gateway
// events with the Server Members intent, the member sweep without it, decision 036); a leave after the
// stay is seen only with the intent. So at D+7 and D+30 the bot looks up a sample of each campaign's
// paid members who have no recorded leave: GET /guilds/{g}/members/{u}, one request each, in the
// background lane (no person waits on it). The quota is bounded by construction: at most PER_CAMPAIGN
// members per campaign and milestone, ever, and PER_RUN per milestone and run — with the job every
// 30 minutes, at most 2 × 40 look-ups per half hour for the whole product, a rounding error beside
// Discord's 50 requests per second. A member checked late by more than WINDOW_DAYS is not checked: the
// answer would be about a later day. The quality view scales the sample's share present to everyone
// not known to have left, and says it is an estimate and from how many checks.

export const RETENTION_SAMPLE = { perCampaign: 20, perRun: 40, windowDays: 3, milestones: [7, 30] } as const;

export interface RetentionSampleResult {
  checked: number;
  present: number;
  absent: number;
  /** Look-ups Discord did not answer (the bot left the guild, an outage): tried again next run. */
  skipped: number;
}

export async function sampleRetention(ctx: AppContext): Promise<RetentionSampleResult> {
  const result: RetentionSampleResult = { checked: 0, present: 0, absent: 0, skipped: 0 };
  const now = ctx.clock.now();
  for (const days of RETENTION_SAMPLE.milestones) {
    const due = await qualityRepo(ctx.store.read).dueChecks(
      now,
      days,
      RETENTION_SAMPLE.windowDays,
      RETENTION_SAMPLE.perCampaign,
      RETENTION_SAMPLE.perRun,
    );
    // The query counts each campaign's sample before the run; the run's own checks count here.
    const taken = new Map<string, number>();
    for (const check of due) {
      const sampled = check.sampled + (taken.get(check.campaignId) ?? 0);
      if (sampled >= RETENTION_SAMPLE.perCampaign) continue;
      taken.set(check.campaignId, (taken.get(check.campaignId) ?? 0) + 1);
      let present: boolean;
      try {
        present = (await ctx.discord.getGuildMember(check.guildId, check.discordId)) !== null;
      } catch (err) {
        // 10004 (the bot is no longer in the guild) and outages: nothing can be said; try again later.
        if (!(err instanceof DiscordApiError))
          ctx.logger.warn('retention check failed', { error: errorMessage(err) });
        result.skipped += 1;
        continue;
      }
      await ctx.store.transaction((tx) => qualityRepo(tx).recordCheck(check.joinId, days, present, now));
      result.checked += 1;
      if (present) result.present += 1;
      else result.absent += 1;
    }
  }
  if (result.checked > 0) ctx.logger.info('retention sample', { ...result });
  return result;
}
