// A child process of the multi-process ledger test (src/ledger/ledger.test.ts, scripts/pg-stress.ts):
// hammers shared users of one PostgreSQL database through the ledger (src/ledger/ledger.ts on the
// PostgreSQL store) with `concurrency` interleaved loops, then prints one JSON line saying what the
// ledger reported, for the parent to reconcile against the database. Deterministic per seed (the interleaving is not).
import { openPgDatabase } from '../db/pg-client.ts';
import { createPgStore } from '../db/pg-store.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { AppError } from '../shared/errors.ts';
import { keyedCredit, keyedDebit, type WorkerPlan, type WorkerReport } from './ledger-pg-race.ts';
import { errorMessage } from '../ops/error-text.ts';

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

async function main(): Promise<void> {
  const plan = JSON.parse(process.env.LEDGER_WORKER_PLAN ?? '') as WorkerPlan;
  const database = await openPgDatabase(plan.url, {
    max: 4,
    migrate: false,
    applicationName: 'ledger-worker',
  });
  const store = createPgStore(database);
  const random = prng(plan.seed);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const report: WorkerReport = {
    creditedCents: 0,
    debitedCents: 0,
    penaltyCents: 0,
    debitsRefused: 0,
    keyedWins: {},
    keyedReplays: 0,
    keyedDebitConflicts: 0,
    unexpected: [],
  };
  const now = Date.UTC(2026, 0, 1);
  let next = 0;
  const loop = async () => {
    while (next < plan.ops) {
      next += 1;
      const r = random();
      try {
        if (r < 0.3) {
          const cents = 1 + Math.floor(random() * 400);
          await credit(store, { userId: pick(plan.users), cents, type: 'hourly', now });
          report.creditedCents += cents;
        } else if (r < 0.65) {
          const cents = 1 + Math.floor(random() * 700);
          try {
            await debit(store, { userId: pick(plan.users), cents, type: 'campaign', now });
            report.debitedCents += cents;
          } catch (err) {
            if (!(err instanceof AppError && err.code === 'insufficient_coins')) throw err;
            report.debitsRefused += 1;
          }
        } else if (r < 0.85) {
          const k = keyedCredit(plan, Math.floor(random() * plan.keySpace));
          const result = await credit(store, {
            userId: k.userId,
            cents: k.cents,
            type: 'purchase',
            idempotencyKey: k.key,
            now,
          });
          if (result) {
            report.keyedWins[k.key] = (report.keyedWins[k.key] ?? 0) + 1;
            report.creditedCents += k.cents;
          } else report.keyedReplays += 1;
        } else if (r < 0.93) {
          const k = keyedDebit(plan, Math.floor(random() * plan.keySpace));
          try {
            await debit(store, {
              userId: k.userId,
              cents: k.cents,
              type: 'promote',
              idempotencyKey: k.key,
              now,
            });
            report.keyedWins[k.key] = (report.keyedWins[k.key] ?? 0) + 1;
            report.debitedCents += k.cents;
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            if (err.code === 'conflict') report.keyedDebitConflicts += 1;
            else if (err.code === 'insufficient_coins') report.debitsRefused += 1;
            else throw err;
          }
        } else {
          const cents = 1 + Math.floor(random() * 300);
          await debit(store, {
            userId: pick(plan.penaltyUsers),
            cents,
            type: 'leave_penalty',
            allowNegative: true,
            now,
          });
          report.penaltyCents += cents;
        }
      } catch (err) {
        if (report.unexpected.length < 20) report.unexpected.push(errorMessage(err));
      }
    }
  };
  await Promise.all(Array.from({ length: plan.concurrency }, loop));
  await store.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
