import Database from 'better-sqlite3';
import type { JoinActor } from './join-path.ts';

// Write load for "Discover under writes" (issue 10 item 6): members keep joining bot campaigns while
// Discover is measured. Each verified join decrements the campaign's remaining slots, so every credit
// is a campaign write the Discover cache must pick up (one entry re-read, not a rebuild). Writers
// stop when told; the result says how many campaign writes happened during the measurement.

export interface WriteLoad {
  stop(): Promise<{ joins: number; seconds: number; perSecond: number }>;
}

export function startJoinWrites(options: {
  baseUrl: string;
  simUrl: string;
  databasePath: string;
  actors: JoinActor[];
  /**
   * Only featured campaigns (the page bench: Discover's first page and Featured section list them, so
   * every credit changes a card every member sees, as members join what Discover shows them).
   */
  featuredOnly?: boolean;
  /** Each writer waits this long after each join (a steady rate instead of as fast as the product goes). */
  paceMs?: number;
}): WriteLoad {
  const reader = new Database(options.databasePath, { readonly: true, fileMustExist: true });
  const pick = reader.prepare<{ userId: string }, { id: string; guildId: string }>(
    `SELECT s.id, s.server_id AS guildId FROM servers s
     WHERE s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1 AND s.server_id IS NOT NULL
       AND s.owner_id <> @userId${options.featuredOnly ? ' AND s.is_featured = 1' : ''}
       AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = @userId AND j.server_id = s.id)
     ORDER BY random() LIMIT 8`,
  );
  let running = true;
  let joins = 0;
  // Campaigns a writer may not join (a guild it is already in through another campaign: 409).
  const refused = new Set<string>();
  const started = Date.now();
  const writer = async (actor: JoinActor) => {
    while (running) {
      const campaign = pick
        .all({ userId: actor.userId })
        .find((c) => !refused.has(`${actor.userId}:${c.id}`));
      if (!campaign) return;
      const join = await fetch(`${options.baseUrl}/api/servers/${campaign.id}/join`, {
        method: 'POST',
        headers: { cookie: actor.cookie, 'x-forwarded-proto': 'https' },
      });
      if (join.status === 409) {
        refused.add(`${actor.userId}:${campaign.id}`);
        await join.arrayBuffer();
        continue;
      }
      if (join.status !== 200) throw new Error(`join ${campaign.id}: ${join.status} ${await join.text()}`);
      const add = await fetch(`${options.simUrl}/control/guilds/${campaign.guildId}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: actor.discordId }),
      });
      if (add.status !== 201) throw new Error(`add member: ${add.status} ${await add.text()}`);
      joins += 1;
      if (options.paceMs) await new Promise((resolve) => setTimeout(resolve, options.paceMs));
    }
  };
  const done = Promise.all(options.actors.map(writer));
  return {
    async stop() {
      running = false;
      try {
        await done;
      } finally {
        reader.close();
      }
      const seconds = (Date.now() - started) / 1000;
      return { joins, seconds: Math.round(seconds * 100) / 100, perSecond: Math.round(joins / seconds) };
    },
  };
}
