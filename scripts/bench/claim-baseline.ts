import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { percentile } from './load.ts';

// The ceiling for reward claims on this machine: the same statements an hourly claim runs
// (claimReward + ledger.credit: upsert the reward row, conditional cooldown UPDATE, insert the
// transaction, conditional balance UPDATE), one SQLite transaction per claim, in a plain loop on a
// scratch copy of the seeded database with the product's pragmas. No HTTP, no ORM, no sessions.

export interface BaselineResult {
  claims: number;
  opsPerSecond: number;
  p99Ms: number;
}

const MAX_CENTS = 9_999_999_999;

export function runClaimBaseline(scratchPath: string, limit: number): BaselineResult {
  const sqlite = new Database(scratchPath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  try {
    const userIds = sqlite
      .prepare<[number], { id: string }>('SELECT id FROM users ORDER BY rowid LIMIT ?')
      .all(limit)
      .map((r) => r.id);
    const upsertRow = sqlite.prepare(
      'INSERT INTO hourly_rewards (id, user_id, last_claim_date) VALUES (?, ?, 0) ON CONFLICT(user_id) DO NOTHING',
    );
    const takeCooldown = sqlite.prepare(
      'UPDATE hourly_rewards SET last_claim_date = ? WHERE user_id = ? AND (last_claim_date IS NULL OR last_claim_date <= ?) RETURNING id',
    );
    const insertTx = sqlite.prepare(
      `INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at)
       VALUES (?, ?, 100, 'hourly', 'Hourly reward', NULL, ?) ON CONFLICT(idempotency_key) DO NOTHING RETURNING id`,
    );
    const addCoins = sqlite.prepare('UPDATE users SET coins = coins + 100 WHERE id = ? AND coins + 100 <= ? RETURNING coins');
    const claim = sqlite.transaction((userId: string, now: number) => {
      upsertRow.run(randomUUID(), userId);
      if (!takeCooldown.get(now, userId, now - 3_600_000)) throw new Error(`baseline: ${userId} on cooldown`);
      if (!insertTx.get(randomUUID(), userId, now)) throw new Error('baseline: transaction not inserted');
      if (!addCoins.get(userId, MAX_CENTS)) throw new Error('baseline: balance not updated');
    });

    const latencies: number[] = [];
    const started = performance.now();
    for (const userId of userIds) {
      const t0 = performance.now();
      claim(userId, Date.now());
      latencies.push(performance.now() - t0);
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return { claims: userIds.length, opsPerSecond: userIds.length / seconds, p99Ms: percentile(latencies, 99) };
  } finally {
    sqlite.close();
  }
}
