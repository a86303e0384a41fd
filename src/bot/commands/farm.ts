import { ButtonStyle, ComponentType, type APIButtonComponent, type APIEmbedField } from 'discord.js';
import type { AppContext } from '../../context.ts';
import { botRepo } from '../bot-repo.ts';
import { findDiscoverPage } from '../../joins/discover-campaigns.ts';
import { joinCampaign } from '../../joins/join-campaign.ts';
import { claimNoBotReward } from '../../joins/claim-nobot-reward.ts';
import type { ApiDiscoverServer } from '../../shared/api-types.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../../shared/join-constants.ts';
import { paceWait } from '../../joins/join-pace.ts';
import { formatCents } from '../../shared/money.ts';
import { CAMPAIGN_KIND_RULES } from '../../shared/campaign-kinds.ts';
import { clip, escapeMarkdown } from './limits.ts';
import { COLORS, emptyReply, linkButton, row, siteUrl } from './replies.ts';
import { formatDuration, formatShortWait, localized, slashCommand, tFor, type BotT } from './format.ts';
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
): Promise<{ campaigns: ApiDiscoverServer[]; hasMore: boolean }> {
  const wanted = (page + 1) * FARM_PAGE_SIZE + 1;
  const found: ApiDiscoverServer[] = [];
  let cursor: string | undefined;
  do {
    const result = await findDiscoverPage(ctx, { userId, limit: 100, cursor, q });
    const listed = JSON.parse(result.body.toString('utf8')) as ApiDiscoverServer[];
    // The member's own featured campaign shows on Discover as "Your Server": nothing to join here.
    found.push(...listed.filter((campaign) => !campaign.isMine));
    cursor = result.nextCursor ?? undefined;
  } while (cursor && found.length < wanted);
  const start = page * FARM_PAGE_SIZE;
  return {
    campaigns: found.slice(start, start + FARM_PAGE_SIZE),
    hasMore: found.length > start + FARM_PAGE_SIZE,
  };
}

function button(style: ButtonStyle, label: string, customId: string, disabled = false): APIButtonComponent {
  return { type: ComponentType.Button, style, label, custom_id: customId, disabled } as APIButtonComponent;
}

function campaignLine(t: BotT, campaign: ApiDiscoverServer): string {
  const parts = [
    t('farm.reward', { amount: campaign.coinReward }),
    t('farm.slotsLeft', { count: campaign.membersRemaining }),
  ];
  if (campaign.memberCount !== null) parts.push(t('farm.members', { count: campaign.memberCount }));
  if (!CAMPAIGN_KIND_RULES[campaign.kind].needsBot) parts.push(t('farm.noBot'));
  return parts.join(' · ');
}

/** "6 an hour, 24 a day": the join pace, as the website states it. */
function paceRules(t: BotT, pace: { perHour: number; perDay: number }): string {
  const parts: string[] = [];
  if (pace.perHour > 0) parts.push(t('farm.perHour', { count: pace.perHour }));
  if (pace.perDay > 0) parts.push(t('farm.perDay', { count: pace.perDay }));
  return parts.join(', ');
}

export async function farmPage(
  ctx: AppContext,
  t: BotT,
  userId: string,
  page: number,
  q: string | undefined,
): Promise<BotReply> {
  const [{ campaigns: listed, hasMore }, pace] = await Promise.all([
    findFarmPage(ctx, userId, page, q),
    paceWait(ctx, ctx.store.read, userId),
  ]);
  // The member's join pace (decision 038): said before a press, and the Join buttons wait with it.
  const waiting = pace.waitMs > 0;
  if (listed.length === 0 && page === 0) {
    return emptyReply(
      q ? t('farm.noMatchTitle', { q: clip(q, FARM_SEARCH_MAX) }) : t('farm.emptyTitle'),
      q ? t('farm.noMatchText', { farm: t('commands.farm.name') }) : t('farm.emptyText'),
      row(linkButton(t('links.submit'), siteUrl(ctx, '/submit'))),
    );
  }
  const first = page * FARM_PAGE_SIZE;
  const fields: APIEmbedField[] = listed.map((campaign, i) => ({
    name: clip(`${first + i + 1}. ${campaign.isFeatured ? '★ ' : ''}${escapeMarkdown(campaign.name)}`, 256),
    value: campaignLine(t, campaign),
  }));
  const search = q ?? '';
  const joinRow = row(
    ...listed.map((campaign, i) =>
      button(
        ButtonStyle.Success,
        clip(t('farm.join', { n: first + i + 1, name: campaign.name }), 40),
        `farm:join:${campaign.id}`,
        waiting,
      ),
    ),
  );
  const pager = row(
    button(ButtonStyle.Secondary, t('farm.previous'), `farm:page:${page - 1}:${search}`, page === 0),
    button(
      ButtonStyle.Secondary,
      t('farm.next'),
      `farm:page:${page + 1}:${search}`,
      !hasMore || page + 1 >= MAX_PAGES,
    ),
    linkButton(t('links.discover'), siteUrl(ctx, '/')),
  );
  return {
    embeds: [
      {
        title: q ? t('farm.titleMatching', { q: clip(q, FARM_SEARCH_MAX) }) : t('farm.title'),
        description:
          (waiting
            ? t('farm.paced', {
                wait: formatShortWait(t, pace.waitMs),
                rules: paceRules(t, ctx.config.joinPace),
              }) + '\n'
            : '') +
          t('farm.howTo', {
            regularStay: formatDuration(t, CAMPAIGN_KIND_RULES.regular.minStayMs),
            featuredStay: formatDuration(t, CAMPAIGN_KIND_RULES.featured.minStayMs),
            penalty: formatCents(CAMPAIGN_KIND_RULES.regular.penaltyCents),
          }),
        color: COLORS.brand,
        fields,
        footer: { text: t(hasMore ? 'farm.page' : 'farm.lastPage', { page: page + 1 }) },
      },
    ],
    components: listed.length > 0 ? [joinRow, pager] : [pager],
  };
}

export const farmCommand: SlashCommand = {
  definition: slashCommand('farm', 'commands.farm.name', 'commands.farm.description')
    .addStringOption((o) =>
      localized(o, 'search', 'commands.farm.searchName', 'commands.farm.searchDescription').setMaxLength(
        FARM_SEARCH_MAX,
      ),
    )
    .toJSON(),
  needsAccount: true,
  run(ctx, member, interaction) {
    const q = interaction.options.getString('search')?.trim() || undefined;
    return farmPage(ctx, tFor(interaction), member!.userId, 0, q);
  },
};

/** ◀ / ▶: the same list, another page (edits the message). */
export const farmPageButton: ButtonAction = {
  name: 'farm:page',
  mode: 'update',
  run(ctx, member, args, interaction) {
    const page = Math.min(Math.max(0, Number.parseInt(args[0] ?? '0', 10) || 0), MAX_PAGES - 1);
    const q = args.slice(1).join(':').trim() || undefined;
    return farmPage(ctx, tFor(interaction), member.userId, page, q);
  },
};

/** Join: records the join like the website and gives the invite (a new ephemeral message). */
export const farmJoinButton: ButtonAction = {
  name: 'farm:join',
  mode: 'reply',
  // joinServer asks Discord whether the member is already in the guild.
  slow: true,
  writes: 'join',
  async run(ctx, member, args, interaction) {
    const t = tFor(interaction);
    const campaignId = args[0] ?? '';
    const result = await joinCampaign(ctx, member.userId, campaignId);
    const { name, noBot } = await describeCampaign(ctx, campaignId);
    const campaignName = escapeMarkdown(name ?? t('farm.theServer'));
    if (noBot) {
      return {
        embeds: [
          {
            title: t('farm.stayTitle'),
            description: t('farm.stayText', {
              server: campaignName,
              seconds: NOBOT_CLAIM_DELAY_MS / 1000,
              amount: result.potentialReward,
            }),
            color: COLORS.brand,
          },
        ],
        components: [
          row(
            linkButton(t('links.invite'), result.inviteLink),
            button(
              ButtonStyle.Success,
              t('farm.claim', { amount: result.potentialReward }),
              `farm:claim:${campaignId}`,
            ),
          ),
        ],
      };
    }
    return {
      embeds: [
        {
          title: t('farm.almostTitle'),
          description: t('farm.almostText', {
            server: campaignName,
            amount: result.potentialReward,
            joins: t('commands.joins.name'),
          }),
          color: COLORS.brand,
        },
      ],
      components: [row(linkButton(t('links.invite'), result.inviteLink))],
    };
  },
};

/** Claim (no-bot campaigns): the website's claim, then the join message says it is done. */
export const farmClaimButton: ButtonAction = {
  name: 'farm:claim',
  mode: 'update',
  // claimNoBotReward reads the member's guild list from Discord.
  slow: true,
  writes: 'claim',
  async run(ctx, member, args, interaction) {
    const t = tFor(interaction);
    const { earned } = await claimNoBotReward(ctx, member.userId, args[0] ?? '');
    return {
      embeds: [
        {
          title: t('farm.earnedTitle'),
          description: t('rewards.added', { amount: earned }),
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
): Promise<{ name: string | undefined; noBot: boolean }> {
  const found = await botRepo(ctx.store.read).findCampaignSummary(campaignId);
  return {
    name: found?.name,
    noBot: found !== undefined && !CAMPAIGN_KIND_RULES[found.kind].needsBot,
  };
}
