import type { TxHandle } from '../db/engine.ts';
import { CAMPAIGN_PROGRESS_SHARE } from '../shared/reminder-constants.ts';
import { REWARDS, type RewardType } from '../shared/rewards-constants.ts';
import { remindersRepo } from './reminders-repo.ts';
import { REWARD_KIND, wantsReminder } from './reminder-settings.ts';

// Where the schedule is written (decision 055): inside the transaction of the event itself, so a
// reminder exists exactly when the claim, verification or slot it is about committed. Only members who
// switched the kind on get a row; for everyone else this is one primary-key read.

/** Whether the member wants the "ready" reminder of reward `type` (read in the claim's transaction). */
export function wantsRewardReady(tx: TxHandle, userId: string, type: RewardType): Promise<boolean> {
  return wantsReminder(tx, userId, REWARD_KIND[type]);
}

/**
 * After a claim of `type` at `now`: "your hourly reward is ready" one period later. `wanted`: the
 * answer of `wantsRewardReady`, when the caller asked it earlier in the transaction (the claim asks it
 * together with its first write: one round trip on PostgreSQL).
 */
export async function scheduleRewardReady(
  tx: TxHandle,
  userId: string,
  type: RewardType,
  now: number,
  wanted: Promise<boolean> = wantsRewardReady(tx, userId, type),
): Promise<void> {
  const kind = REWARD_KIND[type];
  if (!(await wanted)) return;
  const dueAt = now + REWARDS[type].periodMs;
  await remindersRepo(tx).schedule({ userId, kind, subjectId: type, dueAt, now }, true);
}

/** After a verification with a minimum stay: "you may now leave X without a penalty" when it ends. */
export async function scheduleStayOver(
  tx: TxHandle,
  input: { userId: string; joinId: string; verifiedAt: number; minStayMs: number | null },
): Promise<void> {
  if (!input.minStayMs) return;
  if (!(await wantsReminder(tx, input.userId, 'stay'))) return;
  await remindersRepo(tx).schedule(
    {
      userId: input.userId,
      kind: 'stay',
      subjectId: input.joinId,
      dueAt: input.verifiedAt + input.minStayMs,
      now: input.verifiedAt,
    },
    true,
  );
}

/**
 * After a slot of the campaign was taken: once 80 % of its member slots are delivered, its owner is
 * reminded once (a top-up that brings it back under 80 % does not repeat it). The completion itself is
 * the completion DM (src/bot/completion-notice.ts), sent to every owner as before.
 */
export async function scheduleCampaignProgress(tx: TxHandle, campaignId: string, now: number): Promise<void> {
  const repo = remindersRepo(tx);
  const campaign = await repo.findCampaign(campaignId);
  if (!campaign || campaign.initialMemberSlots <= 0 || campaign.membersRemaining === 0) return;
  const delivered = campaign.initialMemberSlots - campaign.membersRemaining;
  if (delivered < Math.ceil(campaign.initialMemberSlots * CAMPAIGN_PROGRESS_SHARE)) return;
  if (!(await wantsReminder(tx, campaign.ownerId, 'campaign'))) return;
  await repo.schedule(
    { userId: campaign.ownerId, kind: 'campaign', subjectId: campaignId, dueAt: now, now },
    false,
  );
}
