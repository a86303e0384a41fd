import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { socialCompletions, socialTaskStarts, socialTasks } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import { SOCIAL_CLAIM_DELAY_MS, type CompleteSocialTaskResponse } from '../shared/social-schemas.ts';

const PLATFORM_NAMES: Record<string, string> = {
  youtube: 'YouTube',
  discord: 'Discord',
  tiktok: 'TikTok',
  instagram: 'Instagram',
  twitter: 'Twitter',
};

/**
 * Pays a social task once per user: only 15 s or more after the member opened the link. The unique
 * (user, task) completion row and the credit are written in one transaction, so concurrent calls pay once.
 */
export function completeSocialTask(
  db: Db,
  userId: string,
  taskId: string,
  now: number,
): CompleteSocialTaskResponse {
  return db.transaction((tx) => {
    const task = tx.select().from(socialTasks).where(eq(socialTasks.id, taskId)).get();
    if (!task) throw new AppError('not_found', 'Task not found');
    const mine = and(eq(socialCompletions.userId, userId), eq(socialCompletions.taskId, taskId));
    if (tx.select({ id: socialCompletions.id }).from(socialCompletions).where(mine).get()) {
      throw new AppError('conflict', 'Task already completed');
    }
    const start = tx
      .select({ startedAt: socialTaskStarts.startedAt })
      .from(socialTaskStarts)
      .where(and(eq(socialTaskStarts.userId, userId), eq(socialTaskStarts.taskId, taskId)))
      .get();
    if (!start) throw new AppError('bad_request', 'Please open the task link before claiming this reward.');
    if (now < start.startedAt + SOCIAL_CLAIM_DELAY_MS) {
      throw new AppError('too_early', 'Please wait a few more seconds before claiming this reward.');
    }
    const inserted = tx
      .insert(socialCompletions)
      .values({ userId, taskId, completedAt: now })
      .onConflictDoNothing({ target: [socialCompletions.userId, socialCompletions.taskId] })
      .returning({ id: socialCompletions.id })
      .get();
    if (!inserted) throw new AppError('conflict', 'Task already completed');
    const platform = PLATFORM_NAMES[task.platform] ?? task.platform;
    credit(db.$client, {
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
