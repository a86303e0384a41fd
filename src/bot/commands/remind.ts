import {
  REMINDER_KINDS,
  type ReminderKind,
  type ReminderSettingsResponse,
} from '../../shared/reminder-schemas.ts';
import { getReminderSettings, updateReminderSettings } from '../../reminders/reminder-settings.ts';
import { REMINDER_KIND_LABEL } from '../reminder-dm.ts';
import { COLORS, linkButton, row, siteUrl } from './replies.ts';
import { choice, localized, slashCommand, tFor, type BotT } from './format.ts';
import { commandName } from './help.ts';
import type { SlashCommand } from './types.ts';

// /remind kind:<hourly|bonus|daily|stay|campaign|all> state:<on|off> (decision 055): the Account page's
// switches from Discord, in the bot's DM and any server. Without options it shows the settings.

/**
 * Discord tells us the member's language, not their time zone: the first switch-on from Discord takes
 * the usual zone of that language's largest audience (a São Paulo or Istanbul member is right at once;
 * the Account page sets the browser's zone).
 */
const ZONE_OF_DISCORD_LOCALE: Record<string, string> = {
  'pt-BR': 'America/Sao_Paulo',
  tr: 'Europe/Istanbul',
  de: 'Europe/Berlin',
  fr: 'Europe/Paris',
  'es-ES': 'Europe/Madrid',
  'es-419': 'America/Mexico_City',
  'en-GB': 'Europe/London',
};

const ALL = 'all';

export const remindCommand: SlashCommand = {
  definition: slashCommand('remind', 'commands.remind.name', 'commands.remind.description')
    .addStringOption((o) =>
      localized(o, 'kind', 'commands.remind.kindName', 'commands.remind.kindDescription').addChoices(
        ...[...REMINDER_KINDS, ALL].map((k) =>
          choice(k === ALL ? 'remind.kinds.all' : REMINDER_KIND_LABEL[k as ReminderKind], k),
        ),
      ),
    )
    .addStringOption((o) =>
      localized(o, 'state', 'commands.remind.stateName', 'commands.remind.stateDescription').addChoices(
        choice('remind.on', 'on'),
        choice('remind.off', 'off'),
      ),
    )
    .toJSON(),
  needsAccount: true,
  async run(ctx, member, interaction) {
    const t = tFor(interaction);
    const userId = member!.userId;
    const kind = interaction.options.getString('kind');
    const state = interaction.options.getString('state');
    let settings = await getReminderSettings(ctx.store, userId);
    if (kind && state) {
      const kinds = kind === ALL ? [...REMINDER_KINDS] : REMINDER_KINDS.filter((k) => k === kind);
      const on = state === 'on';
      const firstTime = !Object.values(settings.kinds).some(Boolean) && settings.timeZone === 'UTC';
      const zone = ZONE_OF_DISCORD_LOCALE[interaction.locale];
      settings = await updateReminderSettings(
        ctx.store,
        userId,
        {
          kinds: Object.fromEntries(kinds.map((k) => [k, on])),
          ...(on && firstTime && zone ? { timeZone: zone } : {}),
        },
        ctx.clock.now(),
      );
    }
    return {
      embeds: [
        {
          title: t('remind.title'),
          description: describeSettings(t, settings),
          color: settings.dmBlockedAt ? COLORS.gold : COLORS.brand,
          footer: { text: t('remind.howTo', { command: commandName(t, 'remind') }) },
        },
      ],
      components: [row(linkButton(t('links.account'), siteUrl(ctx, '/account')))],
    };
  },
};

function describeSettings(t: BotT, s: ReminderSettingsResponse): string {
  const lines = REMINDER_KINDS.map(
    (k) =>
      `${s.kinds[k] ? '🔔' : '🔕'} ${t(REMINDER_KIND_LABEL[k])}: ${t(s.kinds[k] ? 'remind.on' : 'remind.off')}`,
  );
  lines.push(
    '',
    s.quietHours
      ? t('remind.quiet', { start: s.quietHours.start, end: s.quietHours.end, zone: s.timeZone })
      : t('remind.noQuiet', { zone: s.timeZone }),
  );
  if (s.dmBlockedAt) lines.push('', t('remind.blocked'));
  return lines.join('\n');
}
