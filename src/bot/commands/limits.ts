import type { APIEmbed, APIEmbedField } from 'discord.js';
import type { BotReply, ButtonRow } from './types.ts';

// Discord refuses a message over its limits (400 50035) and the member then sees "The application did
// not respond". Every reply passes through fitReply() so no name, however long, can cause that.
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  rows: 5,
  buttonsPerRow: 5,
  buttonLabel: 80,
  customId: 100,
} as const;

/** Cuts `text` to `max` characters, ending with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Markdown characters in user-chosen names would format the reply: shown as typed instead. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_`~|>[\]()#-])/g, '\\$1').replace(/\s+/g, ' ');
}

function embedSize(embed: APIEmbed): number {
  return (
    (embed.title?.length ?? 0) +
    (embed.description?.length ?? 0) +
    (embed.footer?.text.length ?? 0) +
    (embed.author?.name.length ?? 0) +
    (embed.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0)
  );
}

function fitEmbed(embed: APIEmbed, budget: number): APIEmbed {
  const fitted: APIEmbed = { ...embed };
  if (fitted.title) fitted.title = clip(fitted.title, DISCORD_LIMITS.title);
  if (fitted.description) fitted.description = clip(fitted.description, DISCORD_LIMITS.description);
  if (fitted.footer)
    fitted.footer = { ...fitted.footer, text: clip(fitted.footer.text, DISCORD_LIMITS.footer) };
  let fields: APIEmbedField[] = (fitted.fields ?? []).slice(0, DISCORD_LIMITS.fields).map((f) => ({
    ...f,
    name: clip(f.name || '\u200b', DISCORD_LIMITS.fieldName),
    value: clip(f.value || '\u200b', DISCORD_LIMITS.fieldValue),
  }));
  fitted.fields = fields;
  // Over the total: drop fields from the end (the newest are first), then shorten the description.
  while (embedSize(fitted) > budget && fields.length > 0) {
    fields = fields.slice(0, -1);
    fitted.fields = fields;
  }
  if (embedSize(fitted) > budget && fitted.description) {
    fitted.description = clip(
      fitted.description,
      Math.max(1, fitted.description.length - (embedSize(fitted) - budget)),
    );
  }
  if (fields.length === 0) delete fitted.fields;
  return fitted;
}

function fitRows(rows: ButtonRow[]): ButtonRow[] {
  return rows.slice(0, DISCORD_LIMITS.rows).map((row) => ({
    ...row,
    components: row.components
      .slice(0, DISCORD_LIMITS.buttonsPerRow)
      .map((button) =>
        'label' in button && button.label
          ? { ...button, label: clip(button.label, DISCORD_LIMITS.buttonLabel) }
          : button,
      ),
  }));
}

/** The reply, cut to Discord's limits. */
export function fitReply(reply: BotReply): BotReply {
  const fitted: BotReply = { ...reply };
  if (fitted.content !== undefined) fitted.content = clip(fitted.content, DISCORD_LIMITS.content);
  if (fitted.embeds) {
    let budget: number = DISCORD_LIMITS.embedTotal;
    fitted.embeds = fitted.embeds.slice(0, DISCORD_LIMITS.embeds).map((embed) => {
      const one = fitEmbed(embed, budget);
      budget -= embedSize(one);
      return one;
    });
  }
  if (fitted.components) fitted.components = fitRows(fitted.components);
  return fitted;
}
