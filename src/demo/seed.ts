import type { AppContext } from '../context.ts';
import type { DiscordSimulator } from '../sim/discord/index.ts';
import { seedDiscoverDemo } from '../joins/demo-seed.ts';
import { seedSocialTasks } from '../social/demo-seed.ts';

/** Demo data so the product is alive on first start. Idempotent: runs on every start in demo mode. */
export function seedDemo(ctx: AppContext, simulator: DiscordSimulator): void {
  simulator.state.seedDemo();
  seedDiscoverDemo(ctx, simulator);
  seedSocialTasks(ctx);
  void ctx;
}
