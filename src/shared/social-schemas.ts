import { z } from 'zod';

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

export interface StartSocialTaskResponse {
  /** ISO time the member first opened the link. */
  startedAt: string;
  /** ISO time from which /complete is accepted. */
  claimableAt: string;
}

export interface CompleteSocialTaskResponse {
  /** "2.00" */
  earned: string;
}
