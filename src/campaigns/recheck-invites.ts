import type { AppContext } from '../context.ts';
import { parseInviteCode } from '../shared/campaign-schemas.ts';
import { campaignsRepo } from './campaigns-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

export interface InviteRecheckResult {
  checked: number;
  invalidated: number;
  restored: number;
  /** Codes Discord could not be asked about (left unchanged). */
  failed: number;
}

/**
 * Periodic "invite health" job: resolves the invite of every active campaign and marks it invalid
 * when it no longer works (deleted, expired, or now pointing at another server), valid again once
 * it does. Discover hides invalid ones, so members are never sent to a dead link. A Discord outage
 * changes nothing.
 */
export async function recheckInvites(ctx: AppContext): Promise<InviteRecheckResult> {
  const active = await campaignsRepo(ctx.store.read).listForInviteRecheck();

  const result: InviteRecheckResult = { checked: 0, invalidated: 0, restored: 0, failed: 0 };
  const byCode = new Map<string, typeof active>();
  for (const row of active) {
    const code = row.inviteCode ?? parseInviteCode(row.inviteLink);
    if (!code) continue;
    byCode.set(code, [...(byCode.get(code) ?? []), row]);
  }

  // One at a time: a gentle background job that stays far from Discord's rate limits.
  for (const [code, rows] of byCode) {
    let invite;
    try {
      invite = await ctx.discord.getInvite(code);
    } catch (err) {
      result.failed += 1;
      ctx.logger.warn('invite recheck failed', {
        code,
        error: errorMessage(err),
      });
      continue;
    }
    for (const row of rows) {
      result.checked += 1;
      const valid = invite?.guild !== undefined && (row.guildId === null || invite.guild.id === row.guildId);
      if (valid === row.inviteValid) continue;
      // Each change is its own short transaction (Discord is never awaited inside one). It applies only
      // while the row still has the link Discord was asked about: an owner who replaced the invite while
      // the answer was on its way keeps the new one's validity, and a change another run made meanwhile
      // is not counted twice.
      const changed = await ctx.store.transaction((tx) =>
        campaignsRepo(tx).setInviteValid(row.id, valid, row.inviteLink),
      );
      if (!changed) continue;
      if (valid) result.restored += 1;
      else result.invalidated += 1;
    }
  }
  if (result.invalidated + result.restored > 0) ctx.logger.info('invite recheck', { ...result });
  return result;
}
