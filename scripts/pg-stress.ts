// `npm run test:pg-stress [-- --processes 4 --ops 5000 --concurrency 8]`: the heavier version of the
// PostgreSQL ledger's multi-process test (src/ledger/ledger.test.ts runs 4 × 300 in the unit loop).
// Needs PostgreSQL at PG_TEST_URL (default postgres://postgres@127.0.0.1:5432/postgres); creates one
// database, drops it afterwards, exits 1 if any rule broke.
import { parseArgs } from 'node:util';
import { createPgTestDatabase } from '../src/test/pg.ts';
import { checkLedgerRace, runLedgerRace } from '../src/test/ledger-pg-race.ts';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '4' },
    ops: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '8' },
    users: { type: 'string', default: '20' },
  },
});
const options = {
  processes: Number(values.processes),
  opsPerProcess: Number(values.ops),
  concurrency: Number(values.concurrency),
  users: Number(values.users),
  penaltyUsers: 4,
  keySpace: 1000,
};
const database = await createPgTestDatabase({ max: 2 });
let failed = false;
try {
  const started = Date.now();
  const outcome = await runLedgerRace(database, options);
  const seconds = (Date.now() - started) / 1000;
  const check = await checkLedgerRace(database, outcome);
  const ops = options.processes * options.opsPerProcess;
  console.log(
    JSON.stringify({ ...options, seconds, opsPerSecond: Math.round(ops / seconds), ...check }, null, 2),
  );
  const problems = [
    check.unexpected.length > 0 && `unexpected errors: ${check.unexpected.slice(0, 5).join('; ')}`,
    check.overdrawn.length > 0 && `overdrawn users: ${check.overdrawn.length}`,
    check.mismatches > 0 && `balance != sum of transactions for ${check.mismatches} users`,
    check.keyProblems.length > 0 && `idempotency: ${check.keyProblems.slice(0, 5).join('; ')}`,
    check.databaseNet !== check.reportedNet &&
      `net ${check.databaseNet} in the database, ${check.reportedNet} reported`,
    check.databasePositive !== check.reportedPositive && 'credited total differs from what was reported',
  ].filter(Boolean);
  for (const p of problems) console.error(`✗ ${String(p)}`);
  failed = problems.length > 0;
  console.log(failed ? 'FAILED' : `OK: ${check.transactions} transactions, every rule held`);
} finally {
  await database.dispose();
}
process.exit(failed ? 1 : 0);
