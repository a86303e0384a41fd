import type { DbHandle } from '../db/engine.ts';
import type { ApiSocialTask } from '../shared/api-types.ts';
import { socialRepo } from './social-repo.ts';
import { toApiSocialTask } from './social-view.ts';

/** Every task, oldest first, with `completed` for this user (reads through `h`, e.g. the store's `read`). */
export async function listSocialTasks(h: DbHandle, userId: string): Promise<ApiSocialTask[]> {
  const rows = await socialRepo(h).listTasksFor(userId);
  return rows.map((row) => toApiSocialTask(row.task, row.completed));
}
