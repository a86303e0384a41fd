import { claimReward } from '../../rewards/claim-reward.ts';
import { REWARDS, type RewardType } from '../../shared/rewards-constants.ts';
import { formatCents } from '../../shared/money.ts';
import { getDailyStreak, type DailyStreak } from '../../rewards/streak.ts';
import { COLORS } from './replies.ts';
import { slashCommand, tFor, type BotT } from './format.ts';
import type { SlashCommand } from './types.ts';

// /hourly, /bonus and /daily claim through claimReward, the function POST /api/hourly/claim calls:
// the same cooldown, the same ledger credit, and on refusal the same sentence ("You can claim your
// hourly reward again in 23 minutes."). The success words are the website's toast.
const TOAST_TITLE = {
  regular: 'rewards.claimed.regular',
  bonus: 'rewards.claimed.bonus',
  daily: 'rewards.claimed.daily',
} as const satisfies Record<RewardType, string>;

/** The command's catalogue keys: `commands.<key>.name` and `.description`. */
type CommandKeys = { name: string; description: string };

export function claimRewardCommand(name: string, type: RewardType, keys: CommandKeys): SlashCommand {
  const params = {
    amount: formatCents(REWARDS[type].cents),
    hours: REWARDS[type].periodMs / 3_600_000,
  };
  return {
    definition: slashCommand(name, keys.name, keys.description, params).toJSON(),
    needsAccount: true,
    writes: 'claim',
    async run(ctx, member, interaction) {
      const t = tFor(interaction);
      const now = ctx.clock.now();
      const { earned } = await claimReward(ctx.store, member!.userId, type, now);
      const streak = type === 'daily' ? await getDailyStreak(ctx.store.read, member!.userId, now) : null;
      return {
        embeds: [
          {
            title: t(TOAST_TITLE[type]),
            description: t('rewards.added', { amount: earned }),
            color: COLORS.success,
            ...(streak
              ? { fields: [{ name: t('rewards.streak'), value: streakText(t, streak), inline: false }] }
              : {}),
          },
        ],
      };
    },
  };
}

/** "🔥 3 days in a row (best: 7 days)" */
export const streakText = (t: BotT, streak: DailyStreak): string =>
  t('rewards.streakText', {
    current: t('time.days', { count: streak.current }),
    best: t('time.days', { count: streak.best }),
  });
