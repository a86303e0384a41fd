import { useMutation } from '@tanstack/react-query';
import type { StartSocialTaskResponse } from '@shared/social-schemas.ts';
import { apiJson } from '../../lib/api.ts';

/** POST /api/social/:taskId/start: the server notes when the link was opened (first start wins). */
export function useStartSocialTask() {
  return useMutation({
    mutationFn: (taskId: string) =>
      apiJson<StartSocialTaskResponse>('POST', `/api/social/${encodeURIComponent(taskId)}/start`),
  });
}
