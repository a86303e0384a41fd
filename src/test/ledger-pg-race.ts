import { fileURLToPath } from 'node:url';
import { runJsonWorker } from './json-worker.ts';
import type { PgDatabase } from '../db/pg-client.ts';

// Runs N worker processes (src/test/ledger-pg-worker.ts) against one PostgreSQL database and collects
// what they and the database say, for the ledger's multi-process test and the heavier `npm run
// test:pg-stress`.

export interface WorkerPlan {
  url: string;
  seed: number;
  ops: number;
  concurrency: number;
  users: string[];
  penaltyUsers: string[];
  /** Keyed credits use keys credit:0 … credit:(keySpace-1), shared by every worker. */
  keySpace: number;
}

export interface WorkerReport {
  creditedCents: number;
  debitedCents: number;
  penaltyCents: number;
  debitsRefused: number;
  /** Key → how many of this worker's attempts the ledger accepted (0 or 1 if exactly-once holds). */
  keyedWins: Record<string, number>;
  keyedReplays: number;
  keyedDebitConflicts: number;
  unexpected: string[];
}

/** Same key, same entry: a key's amount and user follow from its number. */
export const keyedCredit = (plan: WorkerPlan, n: number) => ({
  key: `credit:${n}`,
  userId: plan.users[n % plan.users.length]!,
  cents: 100 + (n % 7) * 25,
});
export const keyedDebit = (plan: WorkerPlan, n: number) => ({
  key: `debit:${n}`,
  userId: plan.users[n % plan.users.length]!,
  cents: 50 + (n % 5) * 10,
});

const WORKER = fileURLToPath(new URL('./ledger-pg-worker.ts', import.meta.url));

export interface RaceOptions {
  processes: number;
  opsPerProcess: number;
  concurrency: number;
  users: number;
  penaltyUsers: number;
  keySpace: number;
}

export interface RaceOutcome {
  reports: WorkerReport[];
  plan: Omit<WorkerPlan, 'seed' | 'ops' | 'concurrency'>;
}

function runWorker(plan: WorkerPlan): Promise<WorkerReport> {
  return runJsonWorker<WorkerReport>(WORKER, 'LEDGER_WORKER_PLAN', plan);
}

/** Creates the users (plain ones may never go below zero: a CHECK in this database says so), runs the workers. */
export async function runLedgerRace(
  database: PgDatabase & { url: string },
  options: RaceOptions,
): Promise<RaceOutcome> {
  const users: string[] = [];
  const penaltyUsers: string[] = [];
  for (let i = 0; i < options.users + options.penaltyUsers; i += 1) {
    const id = crypto.randomUUID();
    const penalty = i >= options.users;
    await database.pool.query(
      'INSERT INTO users (id, discord_id, discord_username, created_at) VALUES ($1, $2, $3, 0)',
      [id, `race-${i}`, penalty ? `penalty-${i}` : `plain-${i}`],
    );
    (penalty ? penaltyUsers : users).push(id);
  }
  // Test-only guard: any moment a plain user's committed balance went below zero would abort that
  // transaction with 23514, which the worker reports as unexpected. So "no overdraft" is checked at every
  // commit, not only at the end.
  await database.pool.query(
    "ALTER TABLE users ADD CONSTRAINT race_no_overdraft CHECK (coins >= 0 OR discord_username LIKE 'penalty-%')",
  );
  const plan = { url: database.url, users, penaltyUsers, keySpace: options.keySpace };
  const reports = await Promise.all(
    Array.from({ length: options.processes }, (_, i) =>
      runWorker({
        ...plan,
        seed: 1000 + i * 7919,
        ops: options.opsPerProcess,
        concurrency: options.concurrency,
      }),
    ),
  );
  return { reports, plan };
}

export interface RaceCheck {
  unexpected: string[];
  overdrawn: { id: string; coins: number }[];
  mismatches: number;
  /** Keys accepted more than once (by the workers' count) or whose DB rows differ from that count. */
  keyProblems: string[];
  keysAccepted: number;
  replaysAndConflicts: number;
  debitsRefused: number;
  /** What the workers say they moved vs what the transactions table holds. */
  reportedNet: number;
  databaseNet: number;
  reportedPositive: number;
  databasePositive: number;
  transactions: number;
}

export async function checkLedgerRace(database: PgDatabase, outcome: RaceOutcome): Promise<RaceCheck> {
  const { reports, plan } = outcome;
  const wins = new Map<string, number>();
  for (const r of reports)
    for (const [k, n] of Object.entries(r.keyedWins)) wins.set(k, (wins.get(k) ?? 0) + n);
  const keyRows = await database.pool.query<{ key: string; n: number; amount: number; user_id: string }>(
    `SELECT idempotency_key AS key, COUNT(*)::int AS n, MIN(amount) AS amount, MIN(user_id) AS user_id
     FROM transactions WHERE idempotency_key IS NOT NULL GROUP BY idempotency_key`,
  );
  const keyProblems: string[] = [];
  const inDb = new Map(keyRows.rows.map((r) => [r.key, r]));
  for (const [key, n] of wins)
    if (n !== 1 || inDb.get(key)?.n !== 1)
      keyProblems.push(`${key}: accepted ${n}, rows ${inDb.get(key)?.n ?? 0}`);
  for (const row of keyRows.rows) {
    if (!wins.has(row.key)) keyProblems.push(`${row.key}: in the database, accepted by nobody`);
    const n = Number(row.key.split(':')[1]);
    const expected = row.key.startsWith('credit:')
      ? keyedCredit(plan as WorkerPlan, n)
      : keyedDebit(plan as WorkerPlan, n);
    const sign = row.key.startsWith('credit:') ? 1 : -1;
    if (row.amount !== sign * expected.cents || row.user_id !== expected.userId)
      keyProblems.push(`${row.key}: wrong entry`);
  }
  const overdrawn = await database.pool.query<{ id: string; coins: number }>(
    'SELECT id, coins FROM users WHERE id = ANY($1) AND coins < 0',
    [plan.users],
  );
  const mismatches = await database.pool.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM (SELECT u.id FROM users u LEFT JOIN transactions t ON t.user_id = u.id
     GROUP BY u.id HAVING u.coins != COALESCE(SUM(t.amount), 0)) m`,
  );
  const totals = await database.pool.query<{ net: number; positive: number; n: number }>(
    `SELECT COALESCE(SUM(amount), 0)::bigint AS net, COALESCE(SUM(amount) FILTER (WHERE amount > 0), 0)::bigint AS positive,
            COUNT(*)::int AS n FROM transactions`,
  );
  const sum = (f: (r: WorkerReport) => number) => reports.reduce((a, r) => a + f(r), 0);
  return {
    unexpected: reports.flatMap((r) => r.unexpected),
    overdrawn: overdrawn.rows,
    mismatches: mismatches.rows[0]!.n,
    keyProblems,
    keysAccepted: wins.size,
    replaysAndConflicts: sum((r) => r.keyedReplays + r.keyedDebitConflicts),
    debitsRefused: sum((r) => r.debitsRefused),
    reportedNet: sum((r) => r.creditedCents - r.debitedCents - r.penaltyCents),
    databaseNet: totals.rows[0]!.net,
    reportedPositive: sum((r) => r.creditedCents),
    databasePositive: totals.rows[0]!.positive,
    transactions: totals.rows[0]!.n,
  };
}
