import type { DbHandle } from '../db/engine.ts';
import { and, asc, eq } from 'drizzle-orm';
import { socialCompletions, socialTaskStarts, socialTasks, type SocialTask } from '../db/schema.ts';
import { isForeignKeyViolation } from '../db/query.ts';
import { AppError } from '../shared/errors.ts';

// Social follow tasks, their starts (when a member opened the link) and completions (decision 044):
// one query definition for both engines, held to its contract by social-repo.test.ts on both.

export interface NewSocialTask {
  platform: string;
  title: string;
  url: string;
  coins: number;
}

/** The start's or completion's task was deleted meanwhile (foreign key). */
function taskGone(err: unknown): never {
  if (isForeignKeyViolation(err)) throw new AppError('not_found', 'Task not found');
  throw err;
}

export class SocialRepository {
  constructor(private readonly h: DbHandle) {}

  /** Every task, oldest first (ties by id). */
  async listTasks(): Promise<SocialTask[]> {
    return this.h.q.select().from(socialTasks).orderBy(asc(socialTasks.createdAt), asc(socialTasks.id)).all();
  }

  /** Every task, oldest first, with whether this user completed it. */
  async listTasksFor(userId: string): Promise<{ task: SocialTask; completed: boolean }[]> {
    const rows = await this.h.q
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
    return this.h.q.select().from(socialTasks).where(eq(socialTasks.id, taskId)).get();
  }

  async insertTask(task: NewSocialTask, now: number): Promise<SocialTask> {
    return this.h.q
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

  /** Deletes a task with its starts and completions; false when there is none. */
  async deleteTask(taskId: string): Promise<boolean> {
    const deleted = await this.h.q
      .delete(socialTasks)
      .where(eq(socialTasks.id, taskId))
      .returning({ id: socialTasks.id })
      .get();
    return deleted !== undefined;
  }

  /**
   * Records that the user opened the task's link at `now` unless they did before (unique user+task):
   * returns the first start's time. Throws not_found when the task is gone.
   */
  async recordStart(userId: string, taskId: string, now: number): Promise<number> {
    // On PostgreSQL a concurrent first start waits on the unique (user, task) index, then inserts nothing
    // and reads the first one's time (a new statement sees the committed row under READ COMMITTED).
    const inserted = await this.h.q
      .insert(socialTaskStarts)
      .values({ userId, taskId, startedAt: now })
      .onConflictDoNothing({ target: [socialTaskStarts.userId, socialTaskStarts.taskId] })
      .returning({ startedAt: socialTaskStarts.startedAt })
      .get()
      .catch(taskGone);
    const startedAt = inserted?.startedAt ?? (await this.findStart(userId, taskId));
    if (startedAt === undefined) throw new Error('social task start vanished inside its own transaction');
    return startedAt;
  }

  /** When the user first opened the task's link; undefined when never. */
  async findStart(userId: string, taskId: string): Promise<number | undefined> {
    return (
      await this.h.q
        .select({ startedAt: socialTaskStarts.startedAt })
        .from(socialTaskStarts)
        .where(and(eq(socialTaskStarts.userId, userId), eq(socialTaskStarts.taskId, taskId)))
        .get()
    )?.startedAt;
  }

  async hasCompleted(userId: string, taskId: string): Promise<boolean> {
    const row = await this.h.q
      .select({ id: socialCompletions.id })
      .from(socialCompletions)
      .where(and(eq(socialCompletions.userId, userId), eq(socialCompletions.taskId, taskId)))
      .get();
    return row !== undefined;
  }

  /**
   * Records the completion (unique user+task): true when this call recorded it, false when one exists
   * (also when a concurrent call recorded it first). Throws not_found when the task is gone.
   */
  async insertCompletion(userId: string, taskId: string, now: number): Promise<boolean> {
    // On PostgreSQL the second of two concurrent completions waits for the first's commit, then inserts nothing.
    const inserted = await this.h.q
      .insert(socialCompletions)
      .values({ userId, taskId, completedAt: now })
      .onConflictDoNothing({ target: [socialCompletions.userId, socialCompletions.taskId] })
      .returning({ id: socialCompletions.id })
      .get()
      .catch(taskGone);
    return inserted !== undefined;
  }
}

export function socialRepo(h: DbHandle): SocialRepository {
  return new SocialRepository(h);
}
