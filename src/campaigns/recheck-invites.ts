import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { servers } from '../db/schema.ts';
import { parseInviteCode } from '../shared/campaign-schemas.ts';

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
  const active = ctx.db
    .select({
      id: servers.id,
      inviteCode: servers.inviteCode,
      inviteLink: servers.inviteLink,
      guildId: servers.serverId,
      inviteValid: servers.inviteValid,
    })
    .from(servers)
    .where(and(gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
    .all();

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
        error: err instanceof Error ? err.message : String(err),
      });
      continue;
    }
    for (const row of rows) {
      result.checked += 1;
      const valid = invite?.guild !== undefined && (row.guildId === null || invite.guild.id === row.guildId);
      if (valid === row.inviteValid) continue;
      ctx.db.update(servers).set({ inviteValid: valid }).where(eq(servers.id, row.id)).run();
      if (valid) result.restored += 1;
      else result.invalidated += 1;
    }
  }
  if (result.invalidated + result.restored > 0) ctx.logger.info('invite recheck', { ...result });
  return result;
}
