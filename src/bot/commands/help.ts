import { SlashCommandBuilder } from 'discord.js';
import { PRODUCT_NAME } from '../../shared/brand.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import type { SlashCommand } from './types.ts';

/** The commands /help lists, in the order a new member uses them. */
export const HELP_LINES = [
  ['/farm', 'servers you can join for coins, with Join buttons'],
  ['/joins', 'your recent joins and when each is safe to leave'],
  ['/coins', 'your balance, today’s earnings and next rewards'],
  ['/hourly /bonus /daily', 'claim your timed rewards'],
  ['/campaign', 'for owners: how your campaigns are doing'],
  ['/help', 'this message'],
] as const;

/** /help: what the bot does and where the website, Terms and Privacy are. Works without an account. */
export const helpCommand: SlashCommand = {
  definition: new SlashCommandBuilder()
    .setName('help')
    .setDescription(`What the ${PRODUCT_NAME} bot does, and links`)
    .toJSON(),
  needsAccount: false,
  run(ctx) {
    return {
      embeds: [
        {
          title: `${PRODUCT_NAME} bot`,
          description:
            `Earn coins by joining servers and spend them to grow your own. The bot verifies your joins, ` +
            `and these commands let you earn and check without leaving Discord. Sign in on the website ` +
            `with this same Discord account first.\n\n` +
            HELP_LINES.map(([name, what]) => `**${name}** — ${what}`).join('\n') +
            `\n\n${PRODUCT_NAME} is not affiliated with Discord.`,
          color: COLORS.brand,
        },
      ],
      components: [
        row(
          linkButton('Website', siteUrl(ctx)),
          linkButton('Terms of Service', siteUrl(ctx, '/terms')),
          linkButton('Privacy Policy', siteUrl(ctx, '/privacy')),
        ),
      ],
    };
  },
};
