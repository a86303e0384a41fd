import { listMyJoins } from '../../joins/list-my-joins.ts';
import type { ApiJoin } from '../../shared/api-types.ts';
import { escapeMarkdown } from './limits.ts';
import { COLORS, emptyReply, linkButton, row, siteUrl } from './replies.ts';
import { discordTime, slashCommand, tFor, type BotT } from './format.ts';
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
} as const satisfies Record<ApiJoin['state'], string>;

/** What each join state is called (issue 12's texts, as the website's My Joins says them). */
const STATE_TEXT = {
  waiting: 'joins.state.waiting',
  verified: 'joins.state.verified',
  stayed: 'joins.state.stayed',
  left_early: 'joins.state.left_early',
  left: 'joins.state.left',
  no_reward: 'joins.state.no_reward',
  same_address: 'joins.state.same_address',
  expired: 'joins.state.expired',
} as const satisfies Record<ApiJoin['state'], string>;

/** A join's state in words; dates are Discord timestamps, which each client shows in its own language. */
function stateText(t: BotT, join: ApiJoin): string {
  return t(STATE_TEXT[join.state], {
    reward: join.reward ?? '0.00',
    penalty: join.penalty ?? '0.00',
    until: join.safeToLeaveAt ? discordTime(Date.parse(join.safeToLeaveAt)) : '',
  });
}

/** /joins: the member's recent joins (listMyJoins, as GET /api/joins) with state and safe-to-leave time. */
export const joinsCommand: SlashCommand = {
  definition: slashCommand('joins', 'commands.joins.name', 'commands.joins.description').toJSON(),
  needsAccount: true,
  async run(ctx, member, interaction) {
    const t = tFor(interaction);
    // Back from an invite? Pending joins are looked up first (no gateway event without the intent).
    await checkMemberJoins(ctx, { userId: member!.userId, discordUserId: member!.discordId }, COMMAND_CHECK);
    const joins = await listMyJoins(ctx, member!.userId);
    const link = row(linkButton(t('links.myJoins'), siteUrl(ctx, '/joins')));
    if (joins.length === 0) {
      return emptyReply(t('joins.emptyTitle'), t('joins.emptyText', { farm: t('commands.farm.name') }), link);
    }
    const shown = joins.slice(0, JOINS_SHOWN);
    return {
      embeds: [
        {
          title: t('joins.title'),
          color: COLORS.brand,
          fields: shown.map((join) => {
            const lines = [`${STATE_ICON[join.state]} ${stateText(t, join)}`];
            if (join.state === 'verified' && join.safeToLeaveAt) {
              lines.push(t('joins.safeToLeave', { when: discordTime(Date.parse(join.safeToLeaveAt), 'R') }));
            }
            if (join.canClaim) lines.push(t('joins.readyToClaim'));
            return { name: escapeMarkdown(join.serverName), value: lines.join('\n') };
          }),
          footer:
            joins.length > shown.length
              ? { text: t('joins.more', { shown: shown.length, total: joins.length }) }
              : undefined,
        },
      ],
      components: [link],
    };
  },
};
