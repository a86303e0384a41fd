import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { socialCompletions, socialTaskStarts, socialTasks, type SocialTask } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import type { NewSocialTask, SocialRepository } from './social-repo.ts';

function taskGone(err: unknown): never {
  if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    throw new AppError('not_found', 'Task not found');
  throw err;
}

export class SqliteSocialRepository implements SocialRepository {
  constructor(private readonly db: DbOrTx) {}

  async listTasks(): Promise<SocialTask[]> {
    return this.db.select().from(socialTasks).orderBy(asc(socialTasks.createdAt), asc(socialTasks.id)).all();
  }

  async listTasksFor(userId: string): Promise<{ task: SocialTask; completed: boolean }[]> {
    const rows = this.db
      .select({ task: socialTasks, completionId: socialCompletions.id })
      .from(socialTasks)
      .leftJoin(
        socialCompletions,
        and(eq(socialCompletions.taskId, socialTasks.id), eq(socialCompletions.userId, userId)),
      )
      .orderBy(asc(socialTasks.createdAt), asc(socialTasks.id))
      .all();
    return rows.map((row) => ({ task: row.task, completed: row.completionId !== null }));
  }

  async findTask(taskId: string): Promise<SocialTask | undefined> {
    return this.db.select().from(socialTasks).where(eq(socialTasks.id, taskId)).get();
  }

  async insertTask(task: NewSocialTask, now: number): Promise<SocialTask> {
    return this.db
      .insert(socialTasks)
      .values({
        platform: task.platform,
        title: task.title,
        url: task.url,
        coins: task.coins,
        createdAt: now,
      })
      .returning()
      .get();
  }

  async deleteTask(taskId: string): Promise<boolean> {
    const deleted = this.db
      .delete(socialTasks)
      .where(eq(socialTasks.id, taskId))
      .returning({ id: socialTasks.id })
      .get();
    return deleted !== undefined;
  }

  async recordStart(userId: string, taskId: string, now: number): Promise<number> {
    try {
      this.db
        .insert(socialTaskStarts)
        .values({ userId, taskId, startedAt: now })
        .onConflictDoNothing({ target: [socialTaskStarts.userId, socialTaskStarts.taskId] })
        .run();
    } catch (err) {
      taskGone(err);
    }
    const startedAt = await this.findStart(userId, taskId);
    if (startedAt === undefined) throw new Error('social task start vanished inside its own transaction');
    return startedAt;
  }

  async findStart(userId: string, taskId: string): Promise<number | undefined> {
    return this.db
      .select({ startedAt: socialTaskStarts.startedAt })
      .from(socialTaskStarts)
      .where(and(eq(socialTaskStarts.userId, userId), eq(socialTaskStarts.taskId, taskId)))
      .get()?.startedAt;
  }

  async hasCompleted(userId: string, taskId: string): Promise<boolean> {
    const row = this.db
      .select({ id: socialCompletions.id })
      .from(socialCompletions)
      .where(and(eq(socialCompletions.userId, userId), eq(socialCompletions.taskId, taskId)))
      .get();
    return row !== undefined;
  }

  async insertCompletion(userId: string, taskId: string, now: number): Promise<boolean> {
    try {
      const inserted = this.db
        .insert(socialCompletions)
        .values({ userId, taskId, completedAt: now })
        .onConflictDoNothing({ target: [socialCompletions.userId, socialCompletions.taskId] })
        .returning({ id: socialCompletions.id })
        .get();
      return inserted !== undefined;
    } catch (err) {
      return taskGone(err);
    }
  }
}
