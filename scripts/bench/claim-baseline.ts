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
  seconds: number;
  opsPerSecond: number;
  p99Ms: number;
  /** CPU time of the loop per claim (this process's user + system time; the loop is all it does meanwhile). */
  cpuMsPerClaim: number;
}

const MAX_CENTS = 9_999_999_999;

const KINDS = [
  {
    column: 'last_claim_date',
    type: 'hourly',
    description: 'Hourly reward',
    cents: 100,
    periodMs: 3_600_000,
  },
  {
    column: 'last_bonus_claim_date',
    type: 'bonus',
    description: 'Bonus reward',
    cents: 300,
    periodMs: 6 * 3_600_000,
  },
  {
    column: 'last_daily_claim_date',
    type: 'daily',
    description: 'Daily reward',
    cents: 500,
    periodMs: 24 * 3_600_000,
  },
] as const;

export type BaselineKind = 'regular' | 'bonus' | 'daily';
const KIND_INDEX: Record<BaselineKind, number> = { regular: 0, bonus: 1, daily: 2 };

/**
 * The raw loop, opened once and run in blocks: `run(kind)` makes `users` users each claim that
 * reward once (the same claims the product's block makes), so the bench can interleave product and
 * baseline blocks and both see the same machine load.
 */
export interface ClaimBaseline {
  run(kind: BaselineKind): BaselineResult;
  close(): void;
}

/** `users` users from the `offset`-th (by rowid). */
export function openClaimBaseline(scratchPath: string, users: number, offset = 0): ClaimBaseline {
  const sqlite = new Database(scratchPath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  {
    const userIds = sqlite
      .prepare<[number, number], { id: string }>('SELECT id FROM users ORDER BY rowid LIMIT ? OFFSET ?')
      .all(users, offset)
      .map((r) => r.id);
    const upsertRow = sqlite.prepare(
      'INSERT INTO hourly_rewards (id, user_id, last_claim_date) VALUES (?, ?, 0) ON CONFLICT(user_id) DO NOTHING',
    );
    const statements = KINDS.map((kind) => ({
      kind,
      takeCooldown: sqlite.prepare(
        `UPDATE hourly_rewards SET ${kind.column} = ? WHERE user_id = ? AND (${kind.column} IS NULL OR ${kind.column} <= ?) RETURNING id`,
      ),
      insertTx: sqlite.prepare(
        `INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at)
         VALUES (?, ?, ${kind.cents}, '${kind.type}', '${kind.description}', NULL, ?) ON CONFLICT(idempotency_key) DO NOTHING RETURNING id`,
      ),
      addCoins: sqlite.prepare(
        `UPDATE users SET coins = coins + ${kind.cents} WHERE id = ? AND coins + ${kind.cents} <= ? RETURNING coins`,
      ),
    }));
    const claim = sqlite.transaction((s: (typeof statements)[number], userId: string, now: number) => {
      upsertRow.run(randomUUID(), userId);
      if (!s.takeCooldown.get(now, userId, now - s.kind.periodMs))
        throw new Error(`baseline: ${userId} on cooldown`);
      if (!s.insertTx.get(randomUUID(), userId, now)) throw new Error('baseline: transaction not inserted');
      if (!s.addCoins.get(userId, MAX_CENTS)) throw new Error('baseline: balance not updated');
    });

    return {
      run(kind) {
        const block = statements[KIND_INDEX[kind]]!;
        const latencies: number[] = [];
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        for (const userId of userIds) {
          const t0 = performance.now();
          claim(block, userId, Date.now());
          latencies.push(performance.now() - t0);
        }
        const seconds = (performance.now() - started) / 1000;
        const cpu = process.cpuUsage(cpuBefore);
        latencies.sort((a, b) => a - b);
        return {
          claims: latencies.length,
          seconds,
          opsPerSecond: latencies.length / seconds,
          p99Ms: percentile(latencies, 99),
          cpuMsPerClaim: (cpu.user + cpu.system) / 1000 / latencies.length,
        };
      },
      close: () => sqlite.close(),
    };
  }
}
