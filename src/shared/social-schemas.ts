import { z } from 'zod';

// Social follow tasks: shared request/response shapes and rules (spec §3, §9).
export const SOCIAL_PLATFORMS = ['youtube', 'discord', 'tiktok', 'instagram', 'twitter'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** Completion is accepted this long after the member opened the task's link. */
export const SOCIAL_CLAIM_DELAY_MS = 15_000;
export const DEFAULT_SOCIAL_TASK_CENTS = 200;

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
