// Opt-in reminders (issue 32 item 2, decision 055). Zod-free: the web app imports these.

/** What a member may be reminded of; every kind is off until they switch it on. */
export const REMINDER_KINDS = ['hourly', 'bonus', 'daily', 'stay', 'campaign'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** At most one reminder DM per member this often (several due at once go in one DM). */
export const REMINDER_MEMBER_PACE_MS = 10 * 60 * 1000;
/** A campaign's owner is reminded once when this share of its member slots is delivered. */
export const CAMPAIGN_PROGRESS_SHARE = 0.8;
/** Quiet hours offered when reminders are first switched on: 22:00 to 08:00 local time. */
export const DEFAULT_QUIET_HOURS = { start: '22:00', end: '08:00' } as const;

/** "22:00" → 1320 */
export function minutesOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

/** 1320 → "22:00" */
export function formatMinutesOfDay(minutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** True when Intl knows the IANA time zone ("America/Sao_Paulo", "Europe/Istanbul", "UTC"). */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}
