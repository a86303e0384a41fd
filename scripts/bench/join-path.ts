import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { percentile } from './load.ts';

// Join → bot verification → credit, end to end: the member joins on the website (POST
// /api/servers/:id/join), then "accepts the invite" in the Discord simulator (control API), which
// dispatches GUILD_MEMBER_ADD over the gateway to the product's discord.js bot; the bot verifies and
// credits through the ledger. Latency runs from just before the member is added until the credit
// is visible in the database (polled read-only through a separate connection, every millisecond).

export interface JoinActor {
  userId: string;
  discordId: string;
  cookie: string;
}

export interface JoinPathResult {
  joins: number;
  credited: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  seconds: number;
}

export async function runJoinPath(options: {
  baseUrl: string;
  simUrl: string;
  databasePath: string;
  actors: JoinActor[];
  concurrency: number;
  timeoutMs: number;
}): Promise<JoinPathResult> {
  const { baseUrl, actors } = options;
  const reader = new Database(options.databasePath, { readonly: true, fileMustExist: true });
  try {
    // One bot campaign per actor that they neither own nor joined before, spread over the guilds.
    const pick = reader.prepare<{ userId: string; offset: number }, { id: string; guildId: string }>(
      `SELECT s.id, s.server_id AS guildId FROM servers s
       WHERE s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1 AND s.server_id IS NOT NULL
         AND s.owner_id <> @userId
         AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = @userId AND j.server_id = s.id)
       ORDER BY s.rowid LIMIT 1 OFFSET @offset`,
    );
    const plan = actors.map((actor, i) => {
      const campaign = pick.get({ userId: actor.userId, offset: (i * 7) % 50 });
      if (!campaign) throw new Error(`no joinable campaign for ${actor.userId}`);
      return { actor, campaign };
    });

    const lastRow =
      reader.prepare<[], { last: number | null }>('SELECT MAX(rowid) AS last FROM transactions').get()
        ?.last ?? 0;
    const newCredits = reader.prepare<[number], { rowid: number; userId: string }>(
      `SELECT rowid, user_id AS userId FROM transactions WHERE rowid > ? AND type = 'join_reward' ORDER BY rowid`,
    );
    let cursor = lastRow;
    const waiting = new Map<string, (at: number) => void>();
    const credited = new Map<string, number>();
    let polling = true;
    const poll = () => {
      if (!polling) return;
      const rows = newCredits.all(cursor);
      const at = performance.now();
      for (const row of rows) {
        cursor = row.rowid;
        credited.set(row.userId, at);
        waiting.get(row.userId)?.(at);
      }
      setTimeout(poll, 1);
    };
    poll();

    const waitForCredit = (userId: string) =>
      new Promise<number>((resolve, reject) => {
        const seen = credited.get(userId);
        if (seen !== undefined) return resolve(seen);
        const timer = setTimeout(() => {
          waiting.delete(userId);
          reject(new Error(`no join_reward credit for ${userId} within ${options.timeoutMs} ms`));
        }, options.timeoutMs);
        waiting.set(userId, (at) => {
          clearTimeout(timer);
          waiting.delete(userId);
          resolve(at);
        });
      });

    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < plan.length) {
        const { actor, campaign } = plan[next++]!;
        const join = await fetch(`${baseUrl}/api/servers/${campaign.id}/join`, {
          method: 'POST',
          headers: { cookie: actor.cookie, 'x-forwarded-proto': 'https' },
        });
        if (join.status !== 200) throw new Error(`join ${campaign.id}: ${join.status} ${await join.text()}`);
        const t0 = performance.now();
        const credit = waitForCredit(actor.userId);
        const add = await fetch(`${options.simUrl}/control/guilds/${campaign.guildId}/members`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ userId: actor.discordId }),
        });
        if (add.status !== 201) throw new Error(`add member: ${add.status} ${await add.text()}`);
        latencies.push((await credit) - t0);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(options.concurrency, plan.length) }, worker));
    } finally {
      polling = false;
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      joins: plan.length,
      credited: latencies.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies[latencies.length - 1] ?? Number.NaN,
      seconds,
    };
  } finally {
    reader.close();
  }
}
