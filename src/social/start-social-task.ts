import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { socialTaskStarts, socialTasks } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { SOCIAL_CLAIM_DELAY_MS, type StartSocialTaskResponse } from '../shared/social-schemas.ts';

/**
 * Records when the member opened the task's link. The first start wins (unique user+task), so
 * calling it again, or after completing, changes nothing and returns the original times.
 */
export function startSocialTask(
  db: Db,
  userId: string,
  taskId: string,
  now: number,
): StartSocialTaskResponse {
  return db.transaction((tx) => {
    const task = tx.select({ id: socialTasks.id }).from(socialTasks).where(eq(socialTasks.id, taskId)).get();
    if (!task) throw new AppError('not_found', 'Task not found');
    tx.insert(socialTaskStarts)
      .values({ userId, taskId, startedAt: now })
      .onConflictDoNothing({ target: [socialTaskStarts.userId, socialTaskStarts.taskId] })
      .run();
    const start = tx
      .select({ startedAt: socialTaskStarts.startedAt })
      .from(socialTaskStarts)
      .where(and(eq(socialTaskStarts.userId, userId), eq(socialTaskStarts.taskId, taskId)))
      .get();
    if (!start) throw new Error('social task start vanished inside its own transaction');
    return {
      startedAt: new Date(start.startedAt).toISOString(),
      claimableAt: new Date(start.startedAt + SOCIAL_CLAIM_DELAY_MS).toISOString(),
    };
  });
}
