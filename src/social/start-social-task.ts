import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { SOCIAL_CLAIM_DELAY_MS, type StartSocialTaskResponse } from '../shared/social-schemas.ts';
import { socialRepo } from './social-repo.ts';

/**
 * Records when the member opened the task's link. The first start wins (unique user+task), so
 * calling it again, or after completing, changes nothing and returns the original times.
 */
export async function startSocialTask(
  store: DataStore,
  userId: string,
  taskId: string,
  now: number,
): Promise<StartSocialTaskResponse> {
  const startedAt = await store.transaction(async (tx) => {
    const social = socialRepo(tx);
    if (!(await social.findTask(taskId))) throw new AppError('not_found', 'Task not found');
    return social.recordStart(userId, taskId, now);
  });
  return {
    startedAt: new Date(startedAt).toISOString(),
    claimableAt: new Date(startedAt + SOCIAL_CLAIM_DELAY_MS).toISOString(),
  };
}
