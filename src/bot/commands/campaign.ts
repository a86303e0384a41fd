import { listCampaignProgress, type CampaignProgress } from '../../campaigns/campaign-progress.ts';
import { qualityOverview } from '../../campaigns/quality.ts';
import type { ApiCampaignQuality } from '../../shared/quality.ts';
import { escapeMarkdown } from './limits.ts';
import { slashCommand, tFor, type BotT } from './format.ts';
import { COLORS, emptyReply, linkButton, row, siteUrl } from './replies.ts';
import type { SlashCommand } from './types.ts';

/** Campaigns shown (one field each, 25 is Discord's limit); the rest are on My Campaigns. */
export const CAMPAIGNS_SHOWN = 20;

function bar(filled: number, slots: number): string {
  const width = 10;
  const full = slots <= 0 ? width : Math.round((Math.min(filled, slots) / slots) * width);
  return `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
}

/** Retention of the members paid for (issue 31 item 1, decision 054); nothing before the first one. */
function qualityLine(t: BotT, q: ApiCampaignQuality | undefined): string[] {
  if (!q || !q.tracked || q.paidMembers === 0) return [];
  const at = (key: string) => {
    const p = q.retention.find((r) => r.key === key);
    return p?.rate == null ? '—' : `${Math.round(p.rate * 100)}%${p.basis === 'sampled' ? '≈' : ''}`;
  };
  return [t('campaign.quality', { d1: at('d1'), stay: at('endOfStay'), d7: at('d7'), d30: at('d30') })];
}

function describe(t: BotT, c: CampaignProgress, q?: ApiCampaignQuality): string {
  const percent = c.slots <= 0 ? 100 : Math.floor((Math.min(c.filled, c.slots) / c.slots) * 100);
  const status = c.complete
    ? t('campaign.completed')
    : c.paused
      ? t('campaign.paused')
      : t('campaign.active');
  return [
    `${bar(c.filled, c.slots)} ${percent}%`,
    t('campaign.slots', { filled: c.filled, slots: c.slots, remaining: c.remaining }),
    t('campaign.joins', { joins: c.joinCount, early: c.earlyLeaves }),
    ...qualityLine(t, q),
    status,
  ].join('\n');
}

/** /campaign: the owner's campaigns and how far each got, with a link to My Campaigns. */
export const campaignCommand: SlashCommand = {
  definition: slashCommand('campaign', 'commands.campaign.name', 'commands.campaign.description').toJSON(),
  needsAccount: true,
  async run(ctx, member, interaction) {
    const t = tFor(interaction);
    const [campaigns, quality] = await Promise.all([
      listCampaignProgress(ctx, member!.userId),
      qualityOverview(ctx, member!.userId),
    ]);
    const qualityOf = new Map(quality.campaigns.map((q) => [q.campaignId, q]));
    const links = row(
      linkButton(t('links.myCampaigns'), siteUrl(ctx, '/campaigns')),
      linkButton(t('links.submit'), siteUrl(ctx, '/submit')),
    );
    if (campaigns.length === 0) {
      // The website's empty state on My Campaigns.
      return emptyReply(t('campaign.emptyTitle'), t('campaign.emptyText'), links);
    }
    const shown = campaigns.slice(0, CAMPAIGNS_SHOWN);
    return {
      embeds: [
        {
          title: t('campaign.title'),
          color: COLORS.brand,
          fields: shown.map((c) => ({
            name: `${c.isFeatured ? '★ ' : ''}${escapeMarkdown(c.name)}${c.noBot ? t('campaign.noBot') : ''}`,
            value: describe(t, c, qualityOf.get(c.id)),
          })),
          footer:
            campaigns.length > shown.length
              ? { text: t('campaign.more', { shown: shown.length, total: campaigns.length }) }
              : undefined,
        },
      ],
      components: [links],
    };
  },
};
