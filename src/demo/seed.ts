import type { AppContext } from '../context.ts';
import type { DiscordSimulator } from '../discord-sim/index.ts';

/** Demo data so Discover is alive on first start. Idempotent: safe on every start. */
export function seedDemo(_ctx: AppContext, simulator: DiscordSimulator): void {
  simulator.state.seedDemo();
}
