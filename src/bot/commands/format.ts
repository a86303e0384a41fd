import type { TFunction } from 'i18next';
import { SlashCommandBuilder, type Interaction, type SharedNameAndDescription } from 'discord.js';
import { botT, discordLocalizations, resolveLocale, type Locale } from '../../i18n/index.ts';

// Small wording helpers shared by the commands, in the member's language: the interaction's `locale`
// is the language of the member's Discord client (decision 051).

export type BotT = TFunction<'bot'>;

/** Our locale for the language the member's Discord client uses. */
export function interactionLocale(interaction: Pick<Interaction, 'locale'>): Locale {
  return resolveLocale(interaction.locale);
}

/** The bot's words in the member's language. */
export function tFor(interaction: Pick<Interaction, 'locale'>): BotT {
  return botT(interactionLocale(interaction));
}

/** A command's or option's name and description: English, and each Discord locale from the same bot keys. */
export function localized<B extends SharedNameAndDescription>(
  builder: B,
  name: string,
  nameKey: string,
  descriptionKey: string,
  params: Record<string, unknown> = {},
): B {
  return builder
    .setName(name)
    .setNameLocalizations(discordLocalizations(nameKey))
    .setDescription(botT('en')(descriptionKey, params))
    .setDescriptionLocalizations(discordLocalizations(descriptionKey, params));
}

/** A slash command named and described by its bot keys (`localized`). */
export function slashCommand(
  name: string,
  nameKey: string,
  descriptionKey: string,
  params: Record<string, unknown> = {},
): SlashCommandBuilder {
  return localized(new SlashCommandBuilder(), name, nameKey, descriptionKey, params);
}

/** An option's choice, named by a bot key in English and each Discord locale. */
export function choice<V extends string>(key: string, value: V) {
  return { name: botT('en')(key), name_localizations: discordLocalizations(key), value };
}

/**
 * A cooldown, as the website words it ("23 minutes", "1 hour 5 minutes"): at least one minute,
 * rounded up.
 */
export function formatWait(t: BotT, ms: number): string {
  const totalMinutes = Math.max(1, Math.ceil(ms / 60_000));
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return t('time.minutes', { count: minutes });
  if (minutes === 0) return t('time.hours', { count: hours });
  return t('time.hoursMinutes', {
    hours: t('time.hours', { count: hours }),
    minutes: t('time.minutes', { count: minutes }),
  });
}

/** A short wait ("45 s", "12 min", "1 h 5 min"), as the join pace is shown. */
export function formatShortWait(t: BotT, ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return t('time.shortSeconds', { count: seconds });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return t('time.shortMinutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0
    ? t('time.shortHours', { count: hours })
    : t('time.shortHoursMinutes', { hours, minutes: rest });
}

/** "2 days", "5 days", "36 hours": a stay or a delay, from milliseconds. */
export function formatDuration(t: BotT, ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  return hours % 24 === 0 ? t('time.days', { count: hours / 24 }) : t('time.hours', { count: hours });
}

/**
 * A Discord timestamp: each reader's client shows it in their own time zone and language
 * (`f` "January 5, 2026 3:04 PM", `R` "in 2 days").
 */
export function discordTime(ms: number, style: 'f' | 'R' | 'D' = 'f'): string {
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}
