import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { formatCents } from '../shared/money.ts';
import { SOCIAL_CLAIM_DELAY_MS, type CompleteSocialTaskResponse } from '../shared/social-schemas.ts';
import { socialRepo } from './social-repo.ts';

const PLATFORM_NAMES: Record<string, string> = {
  youtube: 'YouTube',
  discord: 'Discord',
  tiktok: 'TikTok',
  instagram: 'Instagram',
  twitter: 'Twitter',
};

/**
 * Pays a social task once per user: only 15 s or more after the member opened the link. The unique
 * (user, task) completion row and the credit are written in one transaction; the completion's insert
 * is the exactly-once rule (a concurrent second one inserts nothing and is refused), so concurrent
 * calls pay once on either engine. The credit's idempotency key says it a second time.
 */
export async function completeSocialTask(
  store: DataStore,
  userId: string,
  taskId: string,
  now: number,
): Promise<CompleteSocialTaskResponse> {
  return store.transaction(async (tx) => {
    const social = socialRepo(tx);
    const task = await social.findTask(taskId);
    if (!task) throw new AppError('not_found', 'Task not found');
    // Checked first only for the message; the insert below is what decides.
    if (await social.hasCompleted(userId, taskId)) throw new AppError('conflict', 'Task already completed');
    const startedAt = await social.findStart(userId, taskId);
    if (startedAt === undefined)
      throw new AppError('bad_request', 'Please open the task link before claiming this reward.');
    if (now < startedAt + SOCIAL_CLAIM_DELAY_MS) {
      throw new AppError('too_early', 'Please wait a few more seconds before claiming this reward.');
    }
    if (!(await social.insertCompletion(userId, taskId, now)))
      throw new AppError('conflict', 'Task already completed');
    const platform = PLATFORM_NAMES[task.platform] ?? task.platform;
    await ledger.credit(tx, {
      userId,
      cents: task.coins,
      type: 'social',
      description: `Social task (${platform}): ${task.title}`,
      idempotencyKey: `social:${userId}:${taskId}`,
      now,
    });
    return { earned: formatCents(task.coins) };
  });
}
