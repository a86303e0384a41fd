import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.ts';
import { createSqliteStore, type DataStore } from '../../src/db/engine.ts';
import { createPgStore } from '../../src/db/pg-store.ts';
import { users } from '../../src/db/schema.ts';
import { claimReward } from '../../src/rewards/claim-reward.ts';
import { sessionCheck } from '../../src/auth/session-policy.ts';
import { closeDiscover, findDiscoverPage } from '../../src/joins/discover-campaigns.ts';
import { assertLedgerInvariant } from '../../src/ledger/index.ts';
import { createPgTestDatabase, PG_TEST_URL } from '../../src/test/pg.ts';
import { backendPids } from './pg-copy.ts';
import { cpuSeconds } from './processes.ts';

// `node --import tsx scripts/bench/pg-request-cpu.ts [claims|session|discover …] [--n 6000] [--flight 16]`:
// the database work of the two hot requests (issue 33 item 2), on both engines in one process, CPU per
// operation counted in this process (process.cpuUsage) and, on PostgreSQL, in the database's backends
// (/proc of the pids in pg_stat_activity) — and the PostgreSQL statements each operation sends (calls of
// pg's Client#query, counted here). The product bench (`npm run bench -- --pg`) measures whole requests;
// this isolates the data layer for quick A/B steps.
//
// - claims: `claimReward` (the service: the conditional reward write, the ledger credit, the reminder
//   check, in one transaction), `flight` in flight, users cycling through the three rewards.
// - session: the session policy's check of a signed-in request (`sessionCheck`).
// - discover: Discover's first page for a member (the list in memory; the member's reads per request).

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const n = flag('n', 6000);
const flight = flag('flight', 16);
const phases = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const wanted = phases.length > 0 ? phases : ['claims', 'session', 'discover'];
const USERS = 500;

let statements = 0;
// Counts every statement node-postgres sends (Client#query), whoever calls it.
const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const originalQuery = clientProto.query;
clientProto.query = function (this: unknown, ...rest: unknown[]) {
  statements += 1;
  return originalQuery.apply(this, rest);
};

async function seedUsers(store: DataStore): Promise<string[]> {
  const ids: string[] = [];
  await store.transaction(async (tx) => {
    for (let i = 0; i < USERS; i++) {
      const row = await tx.q
        .insert(users)
        .values({
          discordId: `7100000000000${String(i).padStart(5, '0')}`,
          discordUsername: `bench${i}`,
          createdAt: Date.UTC(2025, 0, 1),
        })
        .returning({ id: users.id })
        .get();
      ids.push(row.id);
    }
  });
  return ids;
}

interface Figures {
  nodeUs: number;
  dbUs: number;
  statements: number;
}

async function measure(
  store: DataStore,
  dbPids: () => Promise<number[]>,
  op: (i: number) => Promise<unknown>,
): Promise<Figures> {
  const run = async (count: number, offset: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: flight }, async () => {
        while (next < count) await op(offset + next++);
      }),
    );
  };
  await run(Math.min(n, 1000), 0); // warm-up: JIT, prepared statements on every pooled connection
  const pids = await dbPids();
  const dbBefore = pids.map((pid) => cpuSeconds(pid) ?? 0);
  const statementsBefore = statements;
  const start = process.cpuUsage();
  await run(n, 1000);
  const used = process.cpuUsage(start);
  const dbAfter = pids.map((pid) => cpuSeconds(pid) ?? 0);
  const db = dbAfter.reduce((s, v, i) => s + v - dbBefore[i]!, 0);
  return {
    nodeUs: (used.user + used.system) / n,
    dbUs: (db * 1e6) / n,
    statements: (statements - statementsBefore) / n,
  };
}

async function bench(kind: 'sqlite' | 'pg'): Promise<void> {
  let store: DataStore;
  let dispose: () => Promise<void>;
  let dbPids: () => Promise<number[]> = () => Promise.resolve([]);
  if (kind === 'pg') {
    const database = await createPgTestDatabase({ max: 10 });
    store = createPgStore(database);
    dbPids = () => backendPids(PG_TEST_URL, database.name);
    dispose = () => database.dispose();
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'coinsync-pg-request-cpu-'));
    const file = path.join(dir, 'bench.db');
    const database = openDatabase(file);
    store = createSqliteStore(database, file);
    dispose = async () => {
      await store.close();
      database.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  try {
    const ids = await seedUsers(store);
    const day = 24 * 3600_000;
    const types = ['regular', 'bonus', 'daily'] as const;
    const ctx = { store, config: { discord: { cdnUrl: 'https://cdn.example' } }, logger: undefined } as never;
    const check = sessionCheck({ store });
    const now = Date.now();
    const ops: Record<string, (i: number) => Promise<unknown>> = {
      // Each user claims each reward once per pass over the users; the clock moves a day per pass.
      claims: (i) => {
        const pass = Math.floor(i / (ids.length * 3));
        const k = i % (ids.length * 3);
        return claimReward(
          store,
          ids[k % ids.length]!,
          types[Math.floor(k / ids.length)]!,
          now + pass * day * 2,
        );
      },
      session: (i) => check({ signedInAt: now - 1000, lastSeenAt: now - 1000 }, ids[i % ids.length]!, now),
      discover: async (i) => findDiscoverPage(ctx, { userId: ids[i % ids.length]!, limit: 24, now }),
    };
    for (const phase of wanted) {
      const f = await measure(store, dbPids, ops[phase]!);
      console.log(
        `${kind.padEnd(6)} ${phase.padEnd(9)} node ${f.nodeUs.toFixed(0).padStart(5)} µs + db ${f.dbUs
          .toFixed(0)
          .padStart(
            5,
          )} µs = ${(f.nodeUs + f.dbUs).toFixed(0).padStart(5)} µs CPU/op, ${f.statements.toFixed(2)} statements/op (load ${os
          .loadavg()[0]!
          .toFixed(2)})`,
      );
    }
    if (wanted.includes('claims')) await assertLedgerInvariant(store);
  } finally {
    await closeDiscover(store);
    await dispose();
  }
}

const engines = args.includes('--pg-only') ? (['pg'] as const) : (['sqlite', 'pg'] as const);
for (const kind of engines) await bench(kind);
