import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/client.ts';
import { createSqliteStore } from '../../src/db/engine.ts';
import { users } from '../../src/db/schema.ts';
import * as ledger from '../../src/ledger/index.ts';

// `node --import tsx scripts/bench/store-overhead.ts [N]`: what the async SQLite store (decision 028,
// src/db/engine.ts) and the ledger's one query definition (decision 056) cost over plain synchronous
// better-sqlite3 calls, in CPU time per operation (the machine may be loaded: CPU time, not wall
// clock). Compares a credit (its own transaction: the ledger's two statements, hand-prepared and run
// synchronously, vs the ledger through the store) and a read by primary key, synchronous vs through
// the store; the concurrent runs queue on the store's mutex.

const n = Number(process.argv[2] ?? 20000);
const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-store-overhead-'));
const file = path.join(dir, 'bench.db');
const database = openDatabase(file);
const store = createSqliteStore(database, file);
const ids = Array.from(
  { length: 100 },
  (_, i) =>
    database.db
      .insert(users)
      .values({
        discordId: `6000000000000${String(i).padStart(5, '0')}`,
        discordUsername: `u${i}`,
        createdAt: 1,
      })
      .returning()
      .get().id,
);
const now = Date.now();
const entry = (i: number) => ({ userId: ids[i % ids.length]!, cents: 1, type: 'hourly' as const, now });

async function measure(label: string, run: () => Promise<void> | void): Promise<number> {
  await run(); // warm-up pass (JIT, prepared statements)
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  const micros = (used.user + used.system) / n;
  console.log(`${label.padEnd(52)} ${micros.toFixed(1).padStart(7)} µs CPU/op`);
  return micros;
}

const addCoins = database.sqlite.prepare(
  'UPDATE users SET coins = coins + ? WHERE id = ? AND coins + ? <= ? RETURNING coins',
);
const insertEntry = database.sqlite.prepare(
  `INSERT INTO transactions (id, user_id, amount, type, description, idempotency_key, created_at)
   VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
);
const rawCredit = database.sqlite.transaction((e: ReturnType<typeof entry>) => {
  addCoins.get(e.cents, e.userId, e.cents, 9_999_999_999);
  insertEntry.get(crypto.randomUUID(), e.userId, e.cents, e.type, null, null, e.now);
});
const syncCredit = await measure('credit, synchronous (the two statements by hand)', () => {
  for (let i = 0; i < n; i += 1) rawCredit.immediate(entry(i));
});
const storeCredit = await measure('ledger credit, store, one at a time', async () => {
  for (let i = 0; i < n; i += 1) await ledger.credit(store, entry(i));
});
const storeCreditConcurrent = await measure('ledger credit, store, 100 in flight (mutex queue)', async () => {
  for (let i = 0; i < n; i += 100)
    await Promise.all(Array.from({ length: 100 }, (_, j) => ledger.credit(store, entry(i + j))));
});
const syncRead = await measure('read by id, synchronous (writer connection)', () => {
  for (let i = 0; i < n; i += 1)
    database.db
      .select()
      .from(users)
      .where(eq(users.id, ids[i % ids.length]!))
      .get();
});
const read = store.read;
if (read.kind !== 'sqlite') throw new Error('unreachable');
const storeRead = await measure('read by id, store.read (read-only connection), awaited', async () => {
  for (let i = 0; i < n; i += 1)
    await Promise.resolve(
      read.db
        .select()
        .from(users)
        .where(eq(users.id, ids[i % ids.length]!))
        .get(),
    );
});
console.log(
  `store/sync: credit ${(storeCredit / syncCredit).toFixed(2)}×, concurrent credit ${(storeCreditConcurrent / syncCredit).toFixed(2)}×, read ${(storeRead / syncRead).toFixed(2)}× (load ${os.loadavg()[0]!.toFixed(1)})`,
);
await ledger.assertLedgerInvariant(store);
await store.close();
database.close();
rmSync(dir, { recursive: true, force: true });
