import { PRODUCT_NAME } from '../shared/brand.ts';
import { botT, type Locale } from '../i18n/index.ts';
import type { ReminderKind } from '../shared/reminder-constants.ts';
import { commandName } from './commands/help.ts';

// The words of a reminder DM (decision 055), in the member's language. Several reminders due at once
// go in one DM, one line each, with how to stop them at the end.

export type ReminderLine =
  | { kind: 'hourly' | 'bonus' | 'daily' }
  | { kind: 'stay'; name: string }
  | { kind: 'campaign'; name: string; delivered: number; total: number };

export function reminderLine(locale: Locale, line: ReminderLine): string {
  const t = botT(locale);
  switch (line.kind) {
    case 'hourly':
      return t('remind.dm.hourly', { command: commandName(t, 'hourly') });
    case 'bonus':
      return t('remind.dm.bonus', { command: commandName(t, 'bonus') });
    case 'daily':
      return t('remind.dm.daily', { command: commandName(t, 'daily') });
    case 'stay':
      return t('remind.dm.stay', { server: line.name });
    case 'campaign':
      return t('remind.dm.campaign', { name: line.name, delivered: line.delivered, total: line.total });
  }
}

export function reminderMessage(locale: Locale, lines: ReminderLine[]): string {
  const t = botT(locale);
  return [
    ...lines.map((l) => `• ${reminderLine(locale, l)}`),
    '',
    t('remind.dm.footer', { product: PRODUCT_NAME, command: commandName(t, 'remind') }),
  ]
    .join('\n')
    .slice(0, 2000);
}

/** The kind's name in /remind's choices and replies. */
export const REMINDER_KIND_LABEL = {
  hourly: 'remind.kinds.hourly',
  bonus: 'remind.kinds.bonus',
  daily: 'remind.kinds.daily',
  stay: 'remind.kinds.stay',
  campaign: 'remind.kinds.campaign',
} as const satisfies Record<ReminderKind, string>;
