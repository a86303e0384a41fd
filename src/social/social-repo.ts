import type { DbHandle } from '../db/engine.ts';
import type { SocialTask } from '../db/schema.ts';
import { SqliteSocialRepository } from './social-repo.sqlite.ts';
import { PgSocialRepository } from './social-repo.pg.ts';

// Social follow tasks, their starts (when a member opened the link) and completions (decision 034):
// one async interface, a SQLite and a PostgreSQL implementation, held together by social-repo.test.ts.

export interface NewSocialTask {
  platform: string;
  title: string;
  url: string;
  coins: number;
}

export interface SocialRepository {
  /** Every task, oldest first (ties by id). */
  listTasks(): Promise<SocialTask[]>;
  /** Every task, oldest first, with whether this user completed it. */
  listTasksFor(userId: string): Promise<{ task: SocialTask; completed: boolean }[]>;
  findTask(taskId: string): Promise<SocialTask | undefined>;
  insertTask(task: NewSocialTask, now: number): Promise<SocialTask>;
  /** Deletes a task with its starts and completions; false when there is none. */
  deleteTask(taskId: string): Promise<boolean>;
  /**
   * Records that the user opened the task's link at `now` unless they did before (unique user+task):
   * returns the first start's time. Throws not_found when the task is gone.
   */
  recordStart(userId: string, taskId: string, now: number): Promise<number>;
  /** When the user first opened the task's link; undefined when never. */
  findStart(userId: string, taskId: string): Promise<number | undefined>;
  hasCompleted(userId: string, taskId: string): Promise<boolean>;
  /**
   * Records the completion (unique user+task): true when this call recorded it, false when one exists
   * (also when a concurrent call recorded it first). Throws not_found when the task is gone.
   */
  insertCompletion(userId: string, taskId: string, now: number): Promise<boolean>;
}

export function socialRepo(h: DbHandle): SocialRepository {
  return h.kind === 'sqlite' ? new SqliteSocialRepository(h.db) : new PgSocialRepository(h.db);
}
