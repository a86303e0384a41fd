import { SlashCommandBuilder } from 'discord.js';
import { claimReward } from '../../rewards/claim-reward.ts';
import { REWARDS, type RewardType } from '../../shared/rewards-constants.ts';
import { formatCents } from '../../shared/money.ts';
import { getDailyStreak, type DailyStreak } from '../../rewards/streak.ts';
import { COLORS } from './replies.ts';
import type { SlashCommand } from './types.ts';

// /hourly, /bonus and /daily claim through claimReward, the function POST /api/hourly/claim calls:
// the same cooldown, the same ledger credit, and on refusal the same sentence ("You can claim your
// hourly reward again in 23 minutes."). The success words are the website's toast.
const TOAST_TITLE: Record<RewardType, string> = {
  regular: 'Hourly Reward Claimed!',
  bonus: 'Bonus Reward Claimed!',
  daily: 'Daily Reward Claimed!',
};

export function claimRewardCommand(name: string, type: RewardType, description: string): SlashCommand {
  return {
    definition: new SlashCommandBuilder().setName(name).setDescription(description).toJSON(),
    needsAccount: true,
    writes: 'claim',
    async run(ctx, member) {
      const now = ctx.clock.now();
      const { earned } = await claimReward(ctx.store, member!.userId, type, now);
      const streak = type === 'daily' ? await getDailyStreak(ctx.store.read, member!.userId, now) : null;
      return {
        embeds: [
          {
            title: TOAST_TITLE[type],
            description: `+${earned} coins added to your balance`,
            color: COLORS.success,
            ...(streak
              ? { fields: [{ name: 'Daily streak', value: streakText(streak), inline: false }] }
              : {}),
          },
        ],
      };
    },
  };
}

const every = (type: RewardType): string => {
  const hours = REWARDS[type].periodMs / 3_600_000;
  return hours === 1 ? 'every hour' : `every ${hours} hours`;
};

export const rewardDescription = (type: RewardType, label: string): string =>
  `Claim your ${label} reward (+${formatCents(REWARDS[type].cents)} coins ${every(type)})`;

const days = (n: number): string => `${n} day${n === 1 ? '' : 's'}`;

/** "🔥 3 days in a row (best: 7 days)" */
export const streakText = (streak: DailyStreak): string =>
  `🔥 ${days(streak.current)} in a row (best: ${days(streak.best)})`;
