import { and, asc, eq } from 'drizzle-orm';
import { type PgDbOrTx } from '../db/pg-client.ts';
import { socialCompletions, socialTaskStarts, socialTasks } from '../db/schema.pg.ts';
import type { SocialTask } from '../db/schema.ts';
import { AppError, driverErrorCode } from '../shared/errors.ts';
import type { NewSocialTask, SocialRepository } from './social-repo.ts';

/** 23503: the start's or completion's task was deleted meanwhile (foreign key). */
function taskGone(err: unknown): never {
  if (driverErrorCode(err) === '23503') throw new AppError('not_found', 'Task not found');
  throw err;
}

export class PgSocialRepository implements SocialRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async listTasks(): Promise<SocialTask[]> {
    return this.db.select().from(socialTasks).orderBy(asc(socialTasks.createdAt), asc(socialTasks.id));
  }

  async listTasksFor(userId: string): Promise<{ task: SocialTask; completed: boolean }[]> {
    const rows = await this.db
      .select({ task: socialTasks, completionId: socialCompletions.id })
      .from(socialTasks)
      .leftJoin(
        socialCompletions,
        and(eq(socialCompletions.taskId, socialTasks.id), eq(socialCompletions.userId, userId)),
      )
      .orderBy(asc(socialTasks.createdAt), asc(socialTasks.id));
    return rows.map((row) => ({ task: row.task, completed: row.completionId !== null }));
  }

  async findTask(taskId: string): Promise<SocialTask | undefined> {
    const [row] = await this.db.select().from(socialTasks).where(eq(socialTasks.id, taskId));
    return row;
  }

  async insertTask(task: NewSocialTask, now: number): Promise<SocialTask> {
    const [row] = await this.db
      .insert(socialTasks)
      .values({
        platform: task.platform,
        title: task.title,
        url: task.url,
        coins: task.coins,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('social task insert returned nothing');
    return row;
  }

  async deleteTask(taskId: string): Promise<boolean> {
    const rows = await this.db
      .delete(socialTasks)
      .where(eq(socialTasks.id, taskId))
      .returning({ id: socialTasks.id });
    return rows.length > 0;
  }

  async recordStart(userId: string, taskId: string, now: number): Promise<number> {
    // A concurrent first start waits on the unique (user, task) index, then inserts nothing and reads
    // the first one's time (a new statement sees the committed row under READ COMMITTED).
    const inserted = await this.db
      .insert(socialTaskStarts)
      .values({ userId, taskId, startedAt: now })
      .onConflictDoNothing({ target: [socialTaskStarts.userId, socialTaskStarts.taskId] })
      .returning({ startedAt: socialTaskStarts.startedAt })
      .catch(taskGone);
    const startedAt = inserted[0]?.startedAt ?? (await this.findStart(userId, taskId));
    if (startedAt === undefined) throw new Error('social task start vanished inside its own transaction');
    return startedAt;
  }

  async findStart(userId: string, taskId: string): Promise<number | undefined> {
    const [row] = await this.db
      .select({ startedAt: socialTaskStarts.startedAt })
      .from(socialTaskStarts)
      .where(and(eq(socialTaskStarts.userId, userId), eq(socialTaskStarts.taskId, taskId)));
    return row?.startedAt;
  }

  async hasCompleted(userId: string, taskId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: socialCompletions.id })
      .from(socialCompletions)
      .where(and(eq(socialCompletions.userId, userId), eq(socialCompletions.taskId, taskId)));
    return rows.length > 0;
  }

  async insertCompletion(userId: string, taskId: string, now: number): Promise<boolean> {
    // The second of two concurrent completions waits for the first's commit, then inserts nothing.
    const rows = await this.db
      .insert(socialCompletions)
      .values({ userId, taskId, completedAt: now })
      .onConflictDoNothing({ target: [socialCompletions.userId, socialCompletions.taskId] })
      .returning({ id: socialCompletions.id })
      .catch(taskGone);
    return rows.length > 0;
  }
}
