import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// `node --import tsx scripts/bench/claim-cpu.ts <tree> <sqlite|pg> [users] [rounds]`: CPU per reward
// claim (`claimReward`: the conditional reward write and the ledger credit in one store transaction,
// 16 in flight) of the tree at <tree> (this checkout, or another commit extracted beside it, for A/B
// runs that alternate), on a fresh database. Decision 044's micro-bench, kept for decision 056.
//
// CPU per claim is this process's (process.cpuUsage) and, on PostgreSQL, also the server backends' of
// the bench's database (/proc/<pid>/stat, 10 ms ticks): CPU time, not wall clock, because the machine
// may be loaded. One line of JSON per run.

const [treeArg, engineArg, usersArg, roundsArg] = process.argv.slice(2);
if (!treeArg || (engineArg !== 'sqlite' && engineArg !== 'pg'))
  throw new Error('usage: claim-cpu.ts <tree> <sqlite|pg> [users] [rounds]');
const tree = path.resolve(treeArg);
const engine = engineArg;
const userCount = Number(usersArg ?? 400);
const rounds = Number(roundsArg ?? (engine === 'sqlite' ? 10 : 4));
const IN_FLIGHT = 16;
const HOUR = 3_600_000;

const load = async <T>(file: string) => (await import(pathToFileURL(path.join(tree, file)).href)) as T;

interface Store {
  kind: 'sqlite' | 'pg';
  transaction<T>(fn: (tx: unknown) => Promise<T>): Promise<T>;
}
const { createTestStore } = await load<{
  createTestStore: (kind: string) => Promise<{ store: Store; dispose(): Promise<void> }>;
}>('src/test/db.ts');
const { insertUser } = await load<{ insertUser: (store: Store) => Promise<{ id: string }> }>(
  'src/test/factories.ts',
);
const { claimReward } = await load<{
  claimReward: (store: Store, userId: string, type: string, now: number) => Promise<unknown>;
}>('src/rewards/claim-reward.ts');
const { assertLedgerInvariant } = await load<{ assertLedgerInvariant: (store: Store) => Promise<void> }>(
  'src/ledger/index.ts',
);

const t = await createTestStore(engine);
const store = t.store;
const ids: string[] = [];
for (let i = 0; i < userCount; i += 1) ids.push((await insertUser(store)).id);

/** CPU ticks (user + system) of the PostgreSQL backends serving this database, in µs. */
async function serverCpuMicros(): Promise<number> {
  if (store.kind !== 'pg') return 0;
  const pool = (store as unknown as { pool: { query(text: string): Promise<{ rows: { pid: number }[] }> } })
    .pool;
  const { rows } = await pool.query(
    // Every backend of the bench's database, this query's own too (it served claims as well).
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
  );
  const tick = 1_000_000 / 100;
  let total = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // a backend that ended meanwhile
    }
  }
  return total;
}

let now = Date.UTC(2026, 0, 1);
async function round(): Promise<void> {
  now += HOUR + 1;
  let next = 0;
  const at = now;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++]!;
      await claimReward(store, id, 'regular', at);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

await round(); // warm-up: JIT, prepared statements, every user's reward row
const server0 = await serverCpuMicros();
const cpu0 = process.cpuUsage();
const wall0 = performance.now();
for (let r = 0; r < rounds; r += 1) await round();
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - wall0;
const server = (await serverCpuMicros()) - server0;
const claims = rounds * ids.length;
await assertLedgerInvariant(store);
console.log(
  JSON.stringify({
    tree: path.basename(tree),
    engine,
    claims,
    cpuMicrosPerClaim: Math.round((cpu.user + cpu.system) / claims),
    ...(engine === 'pg' ? { serverCpuMicrosPerClaim: Math.round(server / claims) } : {}),
    wallMicrosPerClaim: Math.round((wallMs * 1000) / claims),
    load: Number(os.loadavg()[0]!.toFixed(1)),
  }),
);
await t.dispose();
