import type { AppContext } from '../context.ts';
import { MINUTE } from '../clock.ts';
import { DISCORD_ERROR, DiscordApiError, DmOpensPausedError } from '../discord/discord-api.ts';
import { DEFAULT_LOCALE } from '../i18n/index.ts';
import { storedLocaleOf } from '../i18n/user-locale.ts';
import { REMINDER_KINDS, REMINDER_MEMBER_PACE_MS, type ReminderKind } from '../shared/reminder-constants.ts';
import { reminderMessage, type ReminderLine } from '../bot/reminder-dm.ts';
import { remindersRepo, type ReminderRow, type ReminderSettingsRow } from './reminders-repo.ts';
import { quietHoursEnd } from './quiet-hours.ts';
import { errorMessage } from '../ops/error-text.ts';

// The reminders job (decision 055): every minute, once across bot processes (decision 030), it sends
// what is due. Per member, one transaction decides and claims (pending → sending, last_dm_at set), then
// the DM is sent outside any transaction, then the rows are marked sent. At most once: a process that
// dies between the claim and the mark leaves the rows 'sending', and nothing sends them again — a
// missed reminder costs less than a repeated one (Discord's DM rules, and "nothing sent twice"). Each run
// first sweeps rows left 'sending' past REMINDER_SENDING_LEASE_MS to 'failed' (never back to pending:
// Discord may have delivered the DM before the process died).

/** Members DMed per run at most: 60 a minute, far under the bot's global 50 requests a second. */
export const REMINDER_DMS_PER_RUN = 60;
export const REMINDERS_EVERY_MS = MINUTE;
/** A failed send (not 50007) is tried again this much later, up to REMINDER_MAX_ATTEMPTS times. */
export const REMINDER_RETRY_MS = 5 * MINUTE;
export const REMINDER_MAX_ATTEMPTS = 3;
/**
 * A claim ('sending') older than this was left by a process that died before marking it: a live send
 * ends within seconds (the REST client gives up long before), so the sweep never races a send in flight.
 */
export const REMINDER_SENDING_LEASE_MS = 10 * MINUTE;

export interface ReminderRun {
  sent: number;
  deferred: number;
  canceled: number;
  failed: number;
  /** Claims left 'sending' by a process that died, swept to 'failed'. */
  expired: number;
}

export async function sendDueReminders(ctx: AppContext): Promise<ReminderRun> {
  const run: ReminderRun = { sent: 0, deferred: 0, canceled: 0, failed: 0, expired: 0 };
  const now = ctx.clock.now();
  run.expired = await ctx.store.transaction((tx) =>
    remindersRepo(tx).expireSending(now - REMINDER_SENDING_LEASE_MS),
  );
  const members = await remindersRepo(ctx.store.read).listDueMembers(now, REMINDER_DMS_PER_RUN);
  for (const userId of members) await remindMember(ctx, userId, run);
  if (run.sent + run.failed + run.expired > 0) ctx.logger.info('reminders sent', { ...run });
  return run;
}

interface Claimed {
  rows: ReminderRow[];
  lines: ReminderLine[];
  discordId: string;
  claimedAt: number;
}

async function remindMember(ctx: AppContext, userId: string, run: ReminderRun): Promise<void> {
  const now = ctx.clock.now();
  const claimed = await ctx.store.transaction(async (tx): Promise<Claimed | null> => {
    const repo = remindersRepo(tx);
    const settings = await repo.lockSettings(userId);
    const due = await repo.listDueOf(userId, now);
    if (due.length === 0) return null;
    // Switched off (or DMs refused) since it was scheduled: never sent.
    const off = due.filter((r) => !wanted(settings, r.kind));
    const lines: ReminderLine[] = [];
    const keep: ReminderRow[] = [];
    for (const row of due.filter((r) => wanted(settings, r.kind))) {
      const line = await describe(repo, row);
      if (line) {
        lines.push(line);
        keep.push(row);
      } else off.push(row); // left the server already, campaign canceled…
    }
    run.canceled += (await repo.setPendingState(ids(off), 'canceled', now)).length;
    if (keep.length === 0 || !settings) return null;
    const later = nextAllowed(settings, now);
    if (later > now) {
      await repo.defer(ids(keep), later);
      run.deferred += keep.length;
      return null;
    }
    const user = await repo.findDiscordId(userId);
    if (!user) return null;
    const taken = await repo.setPendingState(ids(keep), 'sending', now);
    await repo.saveSettings(userId, { lastDmAt: now }, now);
    return {
      rows: keep.filter((r) => taken.includes(r.id)),
      lines: lines.filter((_, i) => taken.includes(keep[i]!.id)),
      discordId: user.discordId,
      claimedAt: now,
    };
  });
  if (!claimed || claimed.rows.length === 0) return;
  const locale = (await storedLocaleOf(ctx.store, userId)) ?? DEFAULT_LOCALE;
  try {
    await ctx.discord.sendDirectMessage(claimed.discordId, {
      content: reminderMessage(locale, claimed.lines),
    });
  } catch (err) {
    if (err instanceof DmOpensPausedError) {
      // Discord asked the bot to open DMs more slowly (40003): this member's channel is not open yet,
      // so the reminder waits for the pause to end; Discord saw nothing, so it is not an attempt.
      await ctx.store.transaction((tx) =>
        remindersRepo(tx).finishSending(ids(claimed.rows), claimed.claimedAt, {
          state: 'pending',
          dueAt: Math.max(err.until, ctx.clock.now()),
          uncounted: true,
        }),
      );
      run.deferred += claimed.rows.length;
      return;
    }
    await recordFailure(ctx, userId, claimed, err);
    run.failed += claimed.rows.length;
    return;
  }
  await ctx.store.transaction((tx) =>
    remindersRepo(tx).finishSending(ids(claimed.rows), claimed.claimedAt, { state: 'sent' }),
  );
  run.sent += claimed.rows.length;
}

/**
 * 50007 (the member closed DMs or shares no server with the bot): every kind is switched off at once,
 * pending reminders canceled, and the Account page says why. Another failure is retried a few times.
 */
async function recordFailure(ctx: AppContext, userId: string, claimed: Claimed, err: unknown): Promise<void> {
  const now = ctx.clock.now();
  const refused = err instanceof DiscordApiError && err.code === DISCORD_ERROR.CANNOT_DM_USER;
  await ctx.store.transaction(async (tx) => {
    const repo = remindersRepo(tx);
    if (refused) {
      await repo.finishSending(ids(claimed.rows), claimed.claimedAt, { state: 'failed' });
      const allOff = Object.fromEntries(REMINDER_KINDS.map((k) => [k, false]));
      await repo.saveSettings(userId, { ...allOff, dmBlockedAt: now }, now);
      await repo.cancelPending(userId, REMINDER_KINDS);
      return;
    }
    const last = claimed.rows.filter((r) => r.attempts + 1 >= REMINDER_MAX_ATTEMPTS);
    const retry = claimed.rows.filter((r) => r.attempts + 1 < REMINDER_MAX_ATTEMPTS);
    await repo.finishSending(ids(last), claimed.claimedAt, { state: 'failed' });
    await repo.finishSending(ids(retry), claimed.claimedAt, {
      state: 'pending',
      dueAt: now + REMINDER_RETRY_MS,
    });
  });
  const error = errorMessage(err);
  if (refused) ctx.logger.info('reminder DM refused (50007): reminders switched off', { userId });
  else ctx.logger.warn('reminder DM failed', { userId, error, reminders: claimed.rows.length });
}

function wanted(settings: ReminderSettingsRow | undefined, kind: string): boolean {
  if (!settings || settings.dmBlockedAt !== null) return false;
  return (REMINDER_KINDS as readonly string[]).includes(kind) && settings[kind as ReminderKind];
}

/** The earliest a DM may go: after the member's pace, and outside their quiet hours. */
function nextAllowed(settings: ReminderSettingsRow, now: number): number {
  const paced = settings.lastDmAt === null ? now : Math.max(now, settings.lastDmAt + REMINDER_MEMBER_PACE_MS);
  if (settings.quietStart === null || settings.quietEnd === null) return paced;
  return quietHoursEnd(paced, settings.timeZone, settings.quietStart, settings.quietEnd) ?? paced;
}

async function describe(
  repo: ReturnType<typeof remindersRepo>,
  row: ReminderRow,
): Promise<ReminderLine | null> {
  const kind = row.kind as ReminderKind;
  switch (kind) {
    case 'hourly':
    case 'bonus':
    case 'daily':
      return { kind };
    case 'stay': {
      const join = await repo.findJoin(row.subjectId);
      return join && !join.hasLeft ? { kind, name: join.name } : null;
    }
    case 'campaign': {
      const c = await repo.findCampaign(row.subjectId);
      if (!c || c.canceledAt !== null || c.membersRemaining === 0) return null;
      return {
        kind,
        name: c.name,
        delivered: c.initialMemberSlots - c.membersRemaining,
        total: c.initialMemberSlots,
      };
    }
  }
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
