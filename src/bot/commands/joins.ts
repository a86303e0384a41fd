import { SlashCommandBuilder } from 'discord.js';
import { listMyJoins } from '../../joins/list-my-joins.ts';
import { joinStateLabel } from '../../shared/join-state-text.ts';
import { escapeMarkdown } from './limits.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { discordTime } from './format.ts';
import type { SlashCommand } from './types.ts';
import { checkMemberJoins, COMMAND_CHECK } from '../member-sweep.ts';

/** Joins shown; the rest are on the website's My Joins. */
export const JOINS_SHOWN = 10;

const STATE_ICON = {
  waiting: '◷',
  verified: '✓',
  stayed: '●',
  left_early: '▼',
  left: '○',
  no_reward: '○',
  same_address: '○',
  expired: '✕',
} as const;

/** /joins: the member's recent joins (listMyJoins, as GET /api/joins) with state and safe-to-leave time. */
export const joinsCommand: SlashCommand = {
  definition: new SlashCommandBuilder()
    .setName('joins')
    .setDescription('Your recent joins: state, and when each is safe to leave')
    .toJSON(),
  needsAccount: true,
  async run(ctx, member) {
    // Back from an invite? Pending joins are looked up first (no gateway event without the intent).
    await checkMemberJoins(ctx, { userId: member!.userId, discordUserId: member!.discordId }, COMMAND_CHECK);
    const joins = await listMyJoins(ctx, member!.userId);
    const link = row(linkButton('Open My Joins', siteUrl(ctx, '/joins')));
    if (joins.length === 0) {
      return {
        embeds: [
          {
            title: 'No joins yet',
            description: 'Use /farm to find servers that pay you for joining.',
            color: COLORS.muted,
          },
        ],
        components: [link],
      };
    }
    const shown = joins.slice(0, JOINS_SHOWN);
    return {
      embeds: [
        {
          title: 'Your recent joins',
          color: COLORS.brand,
          fields: shown.map((join) => {
            const lines = [
              `${STATE_ICON[join.state]} ${joinStateLabel(join, (iso) => discordTime(Date.parse(iso)))}`,
            ];
            if (join.state === 'verified' && join.safeToLeaveAt) {
              lines.push(`Safe to leave ${discordTime(Date.parse(join.safeToLeaveAt), 'R')}`);
            }
            if (join.canClaim) lines.push('Ready to claim on the website');
            return { name: escapeMarkdown(join.serverName), value: lines.join('\n') };
          }),
          footer:
            joins.length > shown.length
              ? { text: `${shown.length} of ${joins.length} joins — the rest are on My Joins` }
              : undefined,
        },
      ],
      components: [link],
    };
  },
};
