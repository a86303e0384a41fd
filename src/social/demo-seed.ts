import { eq } from 'drizzle-orm';
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

/** One task per platform for demo mode. Idempotent: a task is added only when none exists for its platform. */
export function seedSocialTasks(ctx: Pick<AppContext, 'db' | 'clock'>): void {
  const now = ctx.clock.now();
  ctx.db.transaction((tx) => {
    DEMO_TASKS.forEach((task, index) => {
      const existing = tx
        .select({ id: socialTasks.id })
        .from(socialTasks)
        .where(eq(socialTasks.platform, task.platform))
        .get();
      // createdAt spaced by 1 ms keeps the listing order stable (YouTube first).
      if (!existing) tx.insert(socialTasks).values({ ...task, createdAt: now + index }).run();
    });
  });
}
