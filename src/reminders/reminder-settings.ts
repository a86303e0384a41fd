import type { DataStore, DbHandle, TxHandle } from '../db/engine.ts';
import { REWARDS, type RewardType } from '../shared/rewards-constants.ts';
import {
  DEFAULT_QUIET_HOURS,
  formatMinutesOfDay,
  minutesOfDay,
  REMINDER_KINDS,
  type ReminderKind,
  type ReminderSettingsResponse,
  type UpdateRemindersInput,
} from '../shared/reminder-schemas.ts';
import { rewardsRepo } from '../rewards/rewards-repo.ts';
import { LAST_CLAIM_KEY } from '../rewards/reward-columns.ts';
import { remindersRepo, type ReminderSettingsRow, type SettingsChange } from './reminders-repo.ts';

// A member's reminder settings (decision 055): every kind off until switched on, on the Account page
// (PUT /api/account/reminders) or with /remind. Switching a kind off cancels its pending reminders;
// switching a reward kind on schedules the reward's next "ready" from the last claim, so a member who
// claimed 20 minutes ago is reminded in 40.

export const REWARD_KIND = { regular: 'hourly', bonus: 'bonus', daily: 'daily' } as const satisfies Record<
  RewardType,
  ReminderKind
>;

export function settingsResponse(row: ReminderSettingsRow | undefined): ReminderSettingsResponse {
  const quiet =
    row && row.quietStart !== null && row.quietEnd !== null
      ? { start: formatMinutesOfDay(row.quietStart), end: formatMinutesOfDay(row.quietEnd) }
      : null;
  return {
    kinds: Object.fromEntries(REMINDER_KINDS.map((k) => [k, row?.[k] ?? false])) as Record<
      ReminderKind,
      boolean
    >,
    timeZone: row?.timeZone ?? 'UTC',
    quietHours: quiet,
    dmBlockedAt: row?.dmBlockedAt ? new Date(row.dmBlockedAt).toISOString() : null,
  };
}

export async function getReminderSettings(
  store: Pick<DataStore, 'read'>,
  userId: string,
): Promise<ReminderSettingsResponse> {
  return settingsResponse(await remindersRepo(store.read).findSettings(userId));
}

/**
 * Applies a change of settings in one transaction. The first time a kind is switched on, quiet hours
 * default to 22:00–08:00 in the given time zone (the browser's, or a guess from the Discord locale for
 * /remind). Switching anything on clears a past "Discord refused our DMs": the member asked again.
 */
export async function updateReminderSettings(
  store: DataStore,
  userId: string,
  input: UpdateRemindersInput,
  now: number,
): Promise<ReminderSettingsResponse> {
  return store.transaction(async (tx) => {
    const repo = remindersRepo(tx);
    const before = await repo.lockSettings(userId);
    const change: SettingsChange = { ...input.kinds };
    if (input.timeZone !== undefined) change.timeZone = input.timeZone;
    if (input.quietHours !== undefined) {
      change.quietStart = input.quietHours ? minutesOfDay(input.quietHours.start) : null;
      change.quietEnd = input.quietHours ? minutesOfDay(input.quietHours.end) : null;
    } else if (!before && Object.values(input.kinds ?? {}).some(Boolean)) {
      change.quietStart = minutesOfDay(DEFAULT_QUIET_HOURS.start);
      change.quietEnd = minutesOfDay(DEFAULT_QUIET_HOURS.end);
    }
    const switchedOn = REMINDER_KINDS.filter((k) => input.kinds?.[k] === true && !before?.[k]);
    const switchedOff = REMINDER_KINDS.filter((k) => input.kinds?.[k] === false);
    if (switchedOn.length > 0) change.dmBlockedAt = null;
    const row = await repo.saveSettings(userId, change, now);
    await repo.cancelPending(userId, switchedOff);
    await scheduleRewardsFromLastClaim(tx, userId, switchedOn, now);
    return settingsResponse(row);
  });
}

async function scheduleRewardsFromLastClaim(
  tx: TxHandle,
  userId: string,
  kinds: ReminderKind[],
  now: number,
): Promise<void> {
  const last = await rewardsRepo(tx).find(userId);
  if (!last) return;
  for (const type of Object.keys(REWARD_KIND) as RewardType[]) {
    if (!kinds.includes(REWARD_KIND[type])) continue;
    const claimedAt = last[LAST_CLAIM_KEY[type]];
    if (!claimedAt) continue;
    const dueAt = claimedAt + REWARDS[type].periodMs;
    if (dueAt > now)
      await remindersRepo(tx).schedule(
        { userId, kind: REWARD_KIND[type], subjectId: type, dueAt, now },
        true,
      );
  }
}

/** Whether the member has switched this kind on (and Discord has not refused our DMs since). */
export async function wantsReminder(h: DbHandle, userId: string, kind: ReminderKind): Promise<boolean> {
  const settings = await remindersRepo(h).findSettings(userId);
  return settings !== undefined && settings[kind] && settings.dmBlockedAt === null;
}
