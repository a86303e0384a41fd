import type { ShardPlan } from '../config.ts';

// Discord's shard rule (https://discord.com/developers/docs/events/gateway#sharding): a guild's events
// arrive on shard (guild_id >> 22) % shard_count; DMs on shard 0. A bot process that runs some shards
// (ROLE=bot, SHARD_IDS) looks after exactly the guilds on them, and its per-shard jobs do too.

/** One shard of a fixed count: the scope of a per-shard job (`reconcile:shard-<id>`). */
export interface ShardScope {
  id: number;
  count: number;
}

/** The shard a guild's events arrive on; an id that is not a snowflake counts as shard 0. */
export function shardOfGuild(guildId: string, count: number): number {
  if (count <= 1 || !/^\d{1,20}$/.test(guildId)) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

/** Whether a guild belongs to the scope (no scope: every guild). A campaign without a guild goes with shard 0, as DMs do. */
export function inShard(guildId: string | null, scope: ShardScope | undefined): boolean {
  if (!scope) return true;
  if (guildId === null) return scope.id === 0;
  return shardOfGuild(guildId, scope.count) === scope.id;
}

/** The discord.js client options for a shard plan: Discord's recommendation, or the fixed group. */
export function clientShardOptions(
  plan: ShardPlan,
): { shards: 'auto' } | { shards: number[]; shardCount: number } {
  return plan === 'auto' ? { shards: 'auto' } : { shards: plan.ids, shardCount: plan.count };
}

/** Name of a shard's reconcile job, as in logs, metrics, job_runs and the readiness report. */
export const reconcileJobName = (shard: number): string => `reconcile:shard-${shard}`;
