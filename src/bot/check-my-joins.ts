import type { AppContext } from '../context.ts';
import { usersRepo } from '../users/users-repo.ts';
import { AppError } from '../shared/errors.ts';
import { formatCents } from '../shared/money.ts';
import { checkMemberJoins } from './member-sweep.ts';

/** POST /api/joins/check's answer: what was looked up and paid now. */
export interface CheckJoinsResponse {
  checked: number;
  verified: { campaignId: string; serverName: string; amount: string }[];
}

/** The signed-in member's pending joins, looked up now (member-sweep.ts, checkMemberJoins). */
export async function checkMyPendingJoins(ctx: AppContext, userId: string): Promise<CheckJoinsResponse> {
  const user = await usersRepo(ctx.store.read).findById(userId);
  if (!user) throw new AppError('unauthorized', 'Not signed in');
  const result = await checkMemberJoins(ctx, { userId, discordUserId: user.discordId });
  return {
    checked: result.checked,
    verified: result.verified.map((v) => ({
      campaignId: v.campaignId,
      serverName: v.name,
      amount: formatCents(v.cents),
    })),
  };
}
