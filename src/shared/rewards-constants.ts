// Timed rewards (docs/spec/product-spec.md §9): amounts in hundredths and cooldowns in ms. Zod-free, so the web app can
// use them without bundling zod; rewards-schemas.ts re-exports them for the API.
export const REWARD_TYPES = ['regular', 'bonus', 'daily'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

const HOUR_MS = 60 * 60 * 1000;

export const REWARDS: Record<RewardType, { cents: number; periodMs: number; label: string }> = {
  regular: { cents: 100, periodMs: HOUR_MS, label: 'hourly' },
  bonus: { cents: 300, periodMs: 6 * HOUR_MS, label: 'bonus' },
  daily: { cents: 500, periodMs: 24 * HOUR_MS, label: 'daily' },
};
