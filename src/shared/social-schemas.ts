import { z } from 'zod';
import type { completeSocialTaskResponseSchema, startSocialTaskResponseSchema } from './api-schemas.ts';

// Social follow tasks: shared request/response shapes and rules (docs/spec/product-spec.md §3, §9).
// The zod-free constants live in social-constants.ts (imported by the web app) and are re-exported here.
export {
  DEFAULT_SOCIAL_TASK_CENTS,
  SOCIAL_CLAIM_DELAY_MS,
  SOCIAL_PLATFORMS,
  type SocialPlatform,
} from './social-constants.ts';

/** Route parameter of /api/social/:taskId/start and /complete. */
export const socialTaskParamsSchema = z.object({
  taskId: z.string().trim().min(1, 'Task id is required'),
});

export type StartSocialTaskResponse = z.infer<typeof startSocialTaskResponseSchema>;
export type CompleteSocialTaskResponse = z.infer<typeof completeSocialTaskResponseSchema>;
