import type { SocialTask } from '../db/schema.ts';
import type { ApiSocialTask } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';

export function toApiSocialTask(task: SocialTask, completed: boolean): ApiSocialTask {
  return {
    id: task.id,
    platform: task.platform,
    title: task.title,
    url: task.url,
    coins: formatCents(task.coins),
    createdAt: new Date(task.createdAt).toISOString(),
    completed,
  };
}
