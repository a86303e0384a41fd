import { PRODUCT_NAME } from '../../shared/brand.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { slashCommand, tFor, type BotT } from './format.ts';
import type { SlashCommand } from './types.ts';

/** The commands /help lists (each line's key in the `bot` catalogue), in the order a new member uses them. */
export const HELP_LINES = [
  [['farm'], 'help.farm'],
  [['joins'], 'help.joins'],
  [['coins'], 'help.coins'],
  [['hourly', 'bonus', 'daily'], 'help.rewards'],
  [['remind'], 'help.remind'],
  [['campaign'], 'help.campaign'],
  [['help'], 'help.help'],
] as const;

/** `/farm`, or `/granjear` for a member whose Discord speaks Spanish: the name their client shows. */
export function commandName(t: BotT, command: string): string {
  return `/${t(`commands.${command}.name`)}`;
}

/** /help: what the bot does and where the website, Terms and Privacy are. Works without an account. */
export const helpCommand: SlashCommand = {
  definition: slashCommand('help', 'commands.help.name', 'commands.help.description', {
    product: PRODUCT_NAME,
  }).toJSON(),
  needsAccount: false,
  run(ctx, _member, interaction) {
    const t = tFor(interaction);
    const lines = HELP_LINES.map(
      ([names, key]) => `**${names.map((name) => commandName(t, name)).join(' ')}** — ${t(key)}`,
    );
    return {
      embeds: [
        {
          title: t('help.title', { product: PRODUCT_NAME }),
          description:
            `${t('help.intro')}\n\n${lines.join('\n')}\n\n` + t('help.disclaimer', { product: PRODUCT_NAME }),
          color: COLORS.brand,
        },
      ],
      components: [
        row(
          linkButton(t('links.website'), siteUrl(ctx)),
          linkButton(t('links.terms'), siteUrl(ctx, '/terms')),
          linkButton(t('links.privacy'), siteUrl(ctx, '/privacy')),
        ),
      ],
    };
  },
};
