import { ButtonStyle, ComponentType, DiscordAPIError, type APIButtonComponent } from 'discord.js';
import type { AppContext } from '../../context.ts';
import {
  AppError,
  INTERNAL_ERROR_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
  storageFailureCode,
} from '../../shared/errors.ts';
import { PRODUCT_NAME } from '../../shared/brand.ts';
import { botT, type Locale } from '../../i18n/index.ts';
import { localizeMessage } from '../../i18n/server-messages.ts';
import type { BotReply, ButtonRow } from './types.ts';
import { errorDetail } from '../../ops/error-text.ts';

// The one place that turns an outcome into words: errors get exactly the text the website shows for
// the same refusal (the services' AppError messages, in the member's language as the API words them
// for a member of that language), unknown failures the website's 500 text.

export const COLORS = {
  brand: 0x5865f2,
  success: 0x23a55a,
  danger: 0xda373c,
  muted: 0x4e5058,
  gold: 0xf0b232,
} as const;

/** Links into the website (its public URL). */
export function siteUrl(ctx: AppContext, path = '/'): string {
  return `${ctx.config.publicUrl}${path}`;
}

export function linkButton(label: string, url: string): APIButtonComponent {
  return { type: ComponentType.Button, style: ButtonStyle.Link, label, url };
}

export function row(...components: APIButtonComponent[]): ButtonRow {
  return { type: ComponentType.ActionRow, components };
}

/** A list's empty state, as the website shows it: what is missing, and where to go from here. */
export function emptyReply(title: string, description: string, links: ButtonRow): BotReply {
  return { embeds: [{ title, description, color: COLORS.muted }], components: [links] };
}

/** For a Discord user with no account on the website yet. */
export function notSignedInReply(ctx: AppContext, locale: Locale): BotReply {
  const t = botT(locale);
  return {
    embeds: [
      {
        title: t('signIn.title', { product: PRODUCT_NAME }),
        description: `${t('signIn.description', { product: PRODUCT_NAME })}\n\n${siteUrl(ctx)}`,
        color: COLORS.brand,
      },
    ],
    components: [row(linkButton(t('signIn.button', { product: PRODUCT_NAME }), siteUrl(ctx)))],
  };
}

/** What to say for a failure: the service's message for refusals, the website's generic text otherwise. */
export function errorReply(ctx: AppContext, err: unknown, where: string, locale: Locale): BotReply {
  if (err instanceof AppError) return { content: localizeMessage(err.message, locale) };
  const code = storageFailureCode(err);
  if (code !== undefined) {
    ctx.logger.error('bot: database write failed in a command', { where, code });
    return { content: localizeMessage(STORAGE_UNAVAILABLE_MESSAGE, locale) };
  }
  ctx.logger.error('bot: command failed', { where, error: errorDetail(err) });
  // The API's body for an unexpected failure (src/shared/errors.ts): the same words in Discord.
  return { content: localizeMessage(INTERNAL_ERROR_MESSAGE, locale) };
}

/** Discord refused our answer (late, already answered, invalid): nothing more can be said to the member. */
export function isDiscordRefusal(err: unknown): err is DiscordAPIError {
  return err instanceof DiscordAPIError;
}
