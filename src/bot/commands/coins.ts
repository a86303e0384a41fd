import { getBalance } from '../../ledger/index.ts';
import { summarizeEarningsByDay } from '../../campaigns/list-transactions.ts';
import { getRewardStatus } from '../../rewards/get-reward-status.ts';
import { formatCents } from '../../shared/money.ts';
import { REWARDS, REWARD_TYPES, type RewardType } from '../../shared/rewards-constants.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { formatWait, slashCommand, tFor } from './format.ts';
import type { SlashCommand } from './types.ts';
import { checkMemberJoins, COMMAND_CHECK } from '../member-sweep.ts';

const COMMAND_OF = {
  regular: 'commands.hourly.name',
  bonus: 'commands.bonus.name',
  daily: 'commands.daily.name',
} as const satisfies Record<RewardType, string>;
const TITLE_OF = {
  regular: 'rewards.title.regular',
  bonus: 'rewards.title.bonus',
  daily: 'rewards.title.daily',
} as const satisfies Record<RewardType, string>;
const HOUR_MS = 3_600_000;

/** /coins: balance, what came in today (UTC), and when each timed reward can be claimed. */
export const coinsCommand: SlashCommand = {
  definition: slashCommand('coins', 'commands.coins.name', 'commands.coins.description').toJSON(),
  needsAccount: true,
  async run(ctx, member, interaction) {
    const t = tFor(interaction);
    // Back from an invite? Pending joins are looked up first (no gateway event without the intent).
    await checkMemberJoins(ctx, { userId: member!.userId, discordUserId: member!.discordId }, COMMAND_CHECK);
    const userId = member!.userId;
    const balance = await getBalance(ctx.store.read, userId);
    const [today] = await summarizeEarningsByDay(ctx, userId, 1, 0);
    const status = await getRewardStatus(ctx.store.read, userId, ctx.clock.now());
    const hoursLeft: Record<RewardType, number> = {
      regular: status.regularHoursRemaining,
      bonus: status.bonusHoursRemaining,
      daily: status.dailyHoursRemaining,
    };
    return {
      embeds: [
        {
          title: t('coins.title'),
          color: COLORS.gold,
          fields: [
            {
              name: t('coins.balance'),
              value: t('coins.balanceValue', { amount: formatCents(balance) }),
              inline: true,
            },
            {
              name: t('coins.earnedToday'),
              value: t('coins.earnedValue', { amount: today?.earned ?? '0.00' }),
              inline: true,
            },
            ...REWARD_TYPES.map((type) => {
              const wait = hoursLeft[type] * HOUR_MS;
              return {
                name: t('coins.reward', {
                  title: t(TITLE_OF[type]),
                  amount: formatCents(REWARDS[type].cents),
                }),
                value:
                  wait <= 0
                    ? t('coins.ready', { command: t(COMMAND_OF[type]) })
                    : t('coins.waitIn', { wait: formatWait(t, wait) }),
                inline: true,
              };
            }),
          ],
        },
      ],
      components: [row(linkButton(t('links.dashboard'), siteUrl(ctx, '/dashboard')))],
    };
  },
};
