// Zod-free social task rules (docs/spec/product-spec.md §3, §9), so the web app can use them without bundling zod.
// social-schemas.ts re-exports them for the API.
export const SOCIAL_PLATFORMS = ['youtube', 'discord', 'tiktok', 'instagram', 'twitter'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/** Completion is accepted this long after the member opened the task's link. */
export const SOCIAL_CLAIM_DELAY_MS = 15_000;
export const DEFAULT_SOCIAL_TASK_CENTS = 200;
