import type { AppContext } from '../context.ts';
import { socialTasks } from '../db/schema.ts';
import type { SocialPlatform } from '../shared/social-schemas.ts';

const DEMO_TASKS: { platform: SocialPlatform; title: string; url: string; coins: number }[] = [
  { platform: 'youtube', title: 'Subscribe to our YouTube channel', url: 'https://www.youtube.com/@coinsync', coins: 200 },
  { platform: 'discord', title: 'Join our Discord community', url: 'https://discord.gg/coinsync-support', coins: 200 },
  { platform: 'tiktok', title: 'Follow us on TikTok', url: 'https://www.tiktok.com/@coinsync', coins: 200 },
  { platform: 'instagram', title: 'Follow us on Instagram', url: 'https://www.instagram.com/coinsync', coins: 200 },
  { platform: 'twitter', title: 'Follow us on Twitter', url: 'https://twitter.com/coinsync', coins: 200 },
];

/**
 * One task per platform for demo mode, seeded only into an empty table so tasks an operator removed with
 * the CLI stay removed across restarts.
 */
export function seedSocialTasks(ctx: Pick<AppContext, 'db' | 'clock'>): void {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    if (tx.select({ id: socialTasks.id }).from(socialTasks).limit(1).get()) return;
    // createdAt spaced by 1 ms keeps the listing order stable (YouTube first).
    DEMO_TASKS.forEach((task, index) => tx.insert(socialTasks).values({ ...task, createdAt: now + index }).run());
  });
}
