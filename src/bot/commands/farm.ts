import {
  ButtonStyle,
  ComponentType,
  SlashCommandBuilder,
  type APIButtonComponent,
  type APIEmbedField,
} from 'discord.js';
import type { AppContext } from '../../context.ts';
import { botRepo } from '../bot-repo.ts';
import { findDiscoverPage } from '../../joins/list-servers.ts';
import { joinServer } from '../../joins/join-server.ts';
import { claimNoBotReward } from '../../joins/claim-nobot-reward.ts';
import type { ApiDiscoverServer } from '../../shared/api-types.ts';
import { NOBOT_CLAIM_DELAY_MS, nextJoinLabel, paceRulesText } from '../../shared/join-constants.ts';
import { paceWait } from '../../joins/join-pace.ts';
import { formatCents } from '../../shared/money.ts';
import { CAMPAIGN_KIND_RULES } from '../../shared/campaign-kinds.ts';
import { clip, escapeMarkdown } from './limits.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { formatDuration } from './format.ts';
import type { BotReply, ButtonAction, SlashCommand } from './types.ts';

// /farm lists what Discover lists (findDiscoverPage: slots left, not joined before, not your own),
// five at a time. "Join" records the join with joinServer — the function behind
// POST /api/servers/{id}/join — and hands over the invite; no-bot servers get a Claim button that
// calls claimNoBotReward like the website's timer does.

export const FARM_PAGE_SIZE = 5;
/** Discord's custom_id holds 100 characters: `farm:page:NN:` plus the search. */
export const FARM_SEARCH_MAX = 60;
const MAX_PAGES = 50;

/** Page `page` (from 0) of the servers the member can join, and whether another page follows. */
export async function findFarmPage(
  ctx: AppContext,
  userId: string,
  page: number,
  q: string | undefined,
): Promise<{ servers: ApiDiscoverServer[]; hasMore: boolean }> {
  const wanted = (page + 1) * FARM_PAGE_SIZE + 1;
  const found: ApiDiscoverServer[] = [];
  let cursor: string | undefined;
  do {
    const result = await findDiscoverPage(ctx, { userId, limit: 100, cursor, q });
    const listed = JSON.parse(result.body.toString('utf8')) as ApiDiscoverServer[];
    // The member's own featured campaign shows on Discover as "Your Server": nothing to join here.
    found.push(...listed.filter((s) => !s.isMine));
    cursor = result.nextCursor ?? undefined;
  } while (cursor && found.length < wanted);
  const start = page * FARM_PAGE_SIZE;
  return {
    servers: found.slice(start, start + FARM_PAGE_SIZE),
    hasMore: found.length > start + FARM_PAGE_SIZE,
  };
}

function button(style: ButtonStyle, label: string, customId: string, disabled = false): APIButtonComponent {
  return { type: ComponentType.Button, style, label, custom_id: customId, disabled } as APIButtonComponent;
}

function serverLine(server: ApiDiscoverServer): string {
  const parts = [
    `**+${server.coinReward} coins**`,
    `${server.membersRemaining} slot${server.membersRemaining === 1 ? '' : 's'} left`,
  ];
  if (server.memberCount !== null)
    parts.push(`${server.memberCount} member${server.memberCount === 1 ? '' : 's'}`);
  if (!CAMPAIGN_KIND_RULES[server.kind].needsBot) parts.push(CAMPAIGN_KIND_RULES.nobot.badge);
  return parts.join(' · ');
}

export async function farmPage(
  ctx: AppContext,
  userId: string,
  page: number,
  q: string | undefined,
): Promise<BotReply> {
  const [{ servers: listed, hasMore }, pace] = await Promise.all([
    findFarmPage(ctx, userId, page, q),
    paceWait(ctx, ctx.store.read, userId),
  ]);
  // The member's join pace (decision 038): said before a press, and the Join buttons wait with it.
  const waiting = pace.waitMs > 0;
  if (listed.length === 0 && page === 0) {
    return {
      embeds: [
        {
          title: q
            ? `No servers match “${clip(q, FARM_SEARCH_MAX)}”`
            : 'No servers found. Be the first to submit one!',
          description: q
            ? 'Try another search, or run /farm without one.'
            : 'Every listed server is joined or full for now. Come back later.',
          color: COLORS.muted,
        },
      ],
      components: [row(linkButton('Submit a server', siteUrl(ctx, '/submit')))],
    };
  }
  const first = page * FARM_PAGE_SIZE;
  const fields: APIEmbedField[] = listed.map((server, i) => ({
    name: clip(`${first + i + 1}. ${server.isFeatured ? '★ ' : ''}${escapeMarkdown(server.name)}`, 256),
    value: serverLine(server),
  }));
  const search = q ?? '';
  const joinRow = row(
    ...listed.map((server, i) =>
      button(
        ButtonStyle.Success,
        clip(`Join ${first + i + 1}. ${server.name}`, 40),
        `farm:join:${server.id}`,
        waiting,
      ),
    ),
  );
  const pager = row(
    button(ButtonStyle.Secondary, '◀ Previous', `farm:page:${page - 1}:${search}`, page === 0),
    button(
      ButtonStyle.Secondary,
      'Next ▶',
      `farm:page:${page + 1}:${search}`,
      !hasMore || page + 1 >= MAX_PAGES,
    ),
    linkButton('Open Discover', siteUrl(ctx, '/')),
  );
  return {
    embeds: [
      {
        title: q ? `Servers to join matching “${clip(q, FARM_SEARCH_MAX)}”` : 'Servers to join',
        description:
          (waiting
            ? `⏳ **${nextJoinLabel(pace.waitMs)}** — to keep your Discord account safe, joins are paced ` +
              `(${paceRulesText(ctx.config.joinPace)}).\n`
            : '') +
          'Press **Join**, accept the invite, and your coins arrive once our bot sees you in the server. ' +
          `Stay ${formatDuration(CAMPAIGN_KIND_RULES.regular.minStayMs)} (${formatDuration(CAMPAIGN_KIND_RULES.featured.minStayMs)} for ★ featured servers) ` +
          `or ${formatCents(CAMPAIGN_KIND_RULES.regular.penaltyCents)} coins are taken back.`,
        color: COLORS.brand,
        fields,
        footer: { text: `Page ${page + 1}${hasMore ? '' : ' (last)'}` },
      },
    ],
    components: listed.length > 0 ? [joinRow, pager] : [pager],
  };
}

export const farmCommand: SlashCommand = {
  definition: new SlashCommandBuilder()
    .setName('farm')
    .setDescription('Servers you can join for coins, five at a time')
    .addStringOption((o) =>
      o
        .setName('search')
        .setDescription('Only servers whose name contains this')
        .setMaxLength(FARM_SEARCH_MAX),
    )
    .toJSON(),
  needsAccount: true,
  run(ctx, member, interaction) {
    const q = interaction.options.getString('search')?.trim() || undefined;
    return farmPage(ctx, member!.userId, 0, q);
  },
};

/** ◀ / ▶: the same list, another page (edits the message). */
export const farmPageButton: ButtonAction = {
  name: 'farm:page',
  mode: 'update',
  run(ctx, member, args) {
    const page = Math.min(Math.max(0, Number.parseInt(args[0] ?? '0', 10) || 0), MAX_PAGES - 1);
    const q = args.slice(1).join(':').trim() || undefined;
    return farmPage(ctx, member.userId, page, q);
  },
};

/** Join: records the join like the website and gives the invite (a new ephemeral message). */
export const farmJoinButton: ButtonAction = {
  name: 'farm:join',
  mode: 'reply',
  // joinServer asks Discord whether the member is already in the guild.
  slow: true,
  writes: 'join',
  async run(ctx, member, args) {
    const campaignId = args[0] ?? '';
    const result = await joinServer(ctx, member.userId, campaignId);
    const { name: server, noBot } = await describeCampaign(ctx, campaignId);
    if (noBot) {
      return {
        embeds: [
          {
            title: 'Stay for a moment',
            description:
              `Accept the invite to **${escapeMarkdown(server)}**, then press **Claim** after ` +
              `${NOBOT_CLAIM_DELAY_MS / 1000} seconds for your +${result.potentialReward} coins.`,
            color: COLORS.brand,
          },
        ],
        components: [
          row(
            linkButton('Open invite', result.inviteLink),
            button(ButtonStyle.Success, `Claim +${result.potentialReward}`, `farm:claim:${campaignId}`),
          ),
        ],
      };
    }
    return {
      embeds: [
        {
          title: 'Almost there!',
          description:
            `Join **${escapeMarkdown(server)}** in Discord — your coins arrive once our bot sees you join ` +
            `(+${result.potentialReward}). Check them with /joins.`,
          color: COLORS.brand,
        },
      ],
      components: [row(linkButton('Open invite', result.inviteLink))],
    };
  },
};

/** Claim (no-bot servers): the website's claim, then the join message says it is done. */
export const farmClaimButton: ButtonAction = {
  name: 'farm:claim',
  mode: 'update',
  // claimNoBotReward reads the member's guild list from Discord.
  slow: true,
  writes: 'claim',
  async run(ctx, member, args) {
    const { earned } = await claimNoBotReward(ctx, member.userId, args[0] ?? '');
    return {
      embeds: [
        {
          title: 'Coins Earned!',
          description: `+${earned} coins added to your balance`,
          color: COLORS.success,
        },
      ],
      components: [],
    };
  },
};

/** Name and kind of the campaign just joined (for the wording only; the rules ran in joinServer). */
async function describeCampaign(
  ctx: AppContext,
  campaignId: string,
): Promise<{ name: string; noBot: boolean }> {
  const found = await botRepo(ctx.store.read).findCampaignSummary(campaignId);
  return {
    name: found?.name ?? 'the server',
    noBot: found !== undefined && !CAMPAIGN_KIND_RULES[found.kind].needsBot,
  };
}
