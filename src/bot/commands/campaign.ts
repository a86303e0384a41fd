import { SlashCommandBuilder } from 'discord.js';
import { listCampaignProgress, type CampaignProgress } from '../../campaigns/campaign-progress.ts';
import { escapeMarkdown } from './limits.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import type { SlashCommand } from './types.ts';

/** Campaigns shown (one field each, 25 is Discord's limit); the rest are on My Campaigns. */
export const CAMPAIGNS_SHOWN = 20;

function bar(filled: number, slots: number): string {
  const width = 10;
  const full = slots <= 0 ? width : Math.round((Math.min(filled, slots) / slots) * width);
  return `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
}

function describe(c: CampaignProgress): string {
  const percent = c.slots <= 0 ? 100 : Math.floor((Math.min(c.filled, c.slots) / c.slots) * 100);
  const status = c.complete
    ? '✓ Completed'
    : c.paused
      ? '‖ Paused: our bot was removed from the server'
      : '● Active';
  return [
    `${bar(c.filled, c.slots)} ${percent}%`,
    `Slots filled **${c.filled}/${c.slots}** · Slots Remaining ${c.remaining}`,
    `Joins via Website ${c.joinCount} · Early leaves ${c.earlyLeaves}`,
    status,
  ].join('\n');
}

/** /campaign: the owner's campaigns and how far each got, with a link to My Campaigns. */
export const campaignCommand: SlashCommand = {
  definition: new SlashCommandBuilder()
    .setName('campaign')
    .setDescription('Your campaigns: slots filled, joins, early leaves, completion')
    .toJSON(),
  needsAccount: true,
  async run(ctx, member) {
    const campaigns = await listCampaignProgress(ctx, member!.userId);
    const links = row(
      linkButton('Open My Campaigns', siteUrl(ctx, '/campaigns')),
      linkButton('Submit a server', siteUrl(ctx, '/submit')),
    );
    if (campaigns.length === 0) {
      // The website's empty state on My Campaigns.
      return {
        embeds: [
          {
            title: "You don't have any active campaigns yet",
            description: 'Submit a server to get started!',
            color: COLORS.muted,
          },
        ],
        components: [links],
      };
    }
    const shown = campaigns.slice(0, CAMPAIGNS_SHOWN);
    return {
      embeds: [
        {
          title: 'Your campaigns',
          color: COLORS.brand,
          fields: shown.map((c) => ({
            name: `${c.isFeatured ? '★ ' : ''}${escapeMarkdown(c.name)}${c.noBot ? ' (No Bot)' : ''}`,
            value: describe(c),
          })),
          footer:
            campaigns.length > shown.length
              ? { text: `${shown.length} of ${campaigns.length} campaigns — all of them are on My Campaigns` }
              : undefined,
        },
      ],
      components: [links],
    };
  },
};
