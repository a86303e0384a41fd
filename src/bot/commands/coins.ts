import { SlashCommandBuilder } from 'discord.js';
import { getBalance } from '../../ledger/index.ts';
import { summarizeEarningsByDay } from '../../campaigns/list-transactions.ts';
import { getRewardStatus } from '../../rewards/get-reward-status.ts';
import { formatCents } from '../../shared/money.ts';
import { REWARDS, REWARD_TYPES, type RewardType } from '../../shared/rewards-constants.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { formatWait } from './format.ts';
import type { SlashCommand } from './types.ts';
import { checkMemberJoins, COMMAND_CHECK } from '../member-sweep.ts';

const COMMAND_OF: Record<RewardType, string> = { regular: '/hourly', bonus: '/bonus', daily: '/daily' };
const TITLE_OF: Record<RewardType, string> = { regular: 'Hourly', bonus: 'Bonus', daily: 'Daily' };
const HOUR_MS = 3_600_000;

/** /coins: balance, what came in today (UTC), and when each timed reward can be claimed. */
export const coinsCommand: SlashCommand = {
  definition: new SlashCommandBuilder()
    .setName('coins')
    .setDescription('Your balance, today’s earnings and your next rewards')
    .toJSON(),
  needsAccount: true,
  async run(ctx, member) {
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
          title: 'Your coins',
          color: COLORS.gold,
          fields: [
            { name: 'Balance', value: `**${formatCents(balance)}** coins`, inline: true },
            { name: 'Earned today (UTC)', value: `+${today?.earned ?? '0.00'}`, inline: true },
            ...REWARD_TYPES.map((type) => {
              const wait = hoursLeft[type] * HOUR_MS;
              return {
                name: `${TITLE_OF[type]} +${formatCents(REWARDS[type].cents)}`,
                value: wait <= 0 ? `Ready — use ${COMMAND_OF[type]}` : `In ${formatWait(wait)}`,
                inline: true,
              };
            }),
          ],
        },
      ],
      components: [row(linkButton('Open Dashboard', siteUrl(ctx, '/dashboard')))],
    };
  },
};
