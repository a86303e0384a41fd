import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { socialCompletions, socialTasks } from '../db/schema.ts';
import type { ApiSocialTask } from '../shared/api-types.ts';
import { toApiSocialTask } from './social-view.ts';

/** Every task, oldest first, with `completed` for this user. */
export function listSocialTasks(db: DbOrTx, userId: string): ApiSocialTask[] {
  const rows = db
    .select({ task: socialTasks, completionId: socialCompletions.id })
    .from(socialTasks)
    .leftJoin(
      socialCompletions,
      and(eq(socialCompletions.taskId, socialTasks.id), eq(socialCompletions.userId, userId)),
    )
    .orderBy(asc(socialTasks.createdAt), asc(socialTasks.id))
    .all();
  return rows.map((row) => toApiSocialTask(row.task, row.completionId !== null));
}
