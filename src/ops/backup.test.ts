import { afterAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { openDatabase } from '../db/client.ts';
import { createUser } from '../test/db.ts';
import { assertLedgerInvariantSync, credit } from '../ledger/ledger.ts';
import { createSqliteStore } from '../db/engine.ts';
import {
  BackupError,
  backupDatabase,
  POSTGRES_BACKUPS,
  isDatabaseInUse,
  restoreDatabase,
  verifyDatabaseFile,
} from './backup.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WRITER = fileURLToPath(new URL('./ledger-load-writer.ts', import.meta.url));

function countTransactions(file: string): number {
  const database = openDatabase(file);
  try {
    assertLedgerInvariantSync(database.sqlite);
    return (database.sqlite.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n;
  } finally {
    database.close();
  }
}

/** Polls the live database (read-only, beside the writer) until it holds more than `than` transactions. */
async function waitForMoreTransactions(file: string, than: number): Promise<void> {
  const reader = new Sqlite(file, { readonly: true });
  try {
    const count = reader.prepare('SELECT count(*) AS n FROM transactions');
    for (let waited = 0; (count.get() as { n: number }).n <= than; waited += 50) {
      if (waited > 60_000) throw new Error(`the writer committed nothing past ${than} in 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    reader.close();
  }
}

describe('backup and restore', () => {
  it('backs up under write load from another process; every backup restores to a balanced ledger', async () => {
    const live = path.join(dir, 'live.db');
    const setup = openDatabase(live);
    const store = createSqliteStore(setup, live);
    for (let i = 0; i < 25; i++) {
      const user = createUser(setup);
      await credit(store, { userId: user.id, cents: 1000, type: 'welcome', now: 1 });
    }
    await store.close();
    setup.close();

    const writer = spawn(process.execPath, ['--import', 'tsx', WRITER, live], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        writer.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) resolve();
        });
        writer.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
        // A hang guard: the writer starts tsx and the product, which takes seconds at load ~20.
        setTimeout(() => reject(new Error('writer not ready in 60 s')), 60_000);
      });
      expect(isDatabaseInUse(live)).toBe(true);

      const backups: string[] = [];
      let backedUp = 0;
      for (let i = 0; i < 3; i++) {
        // Each backup once the writer has committed more since the last one: a fixed pause left a starved
        // writer (load ~20) nothing to commit in it.
        await waitForMoreTransactions(live, backedUp);
        const file = path.join(dir, `backup-${i}.db`);
        const summary = backupDatabase(live, file);
        expect(summary.path).toBe(file);
        backedUp = summary.transactions;
        backups.push(file);
      }

      const counts: number[] = [];
      for (const [i, backup] of backups.entries()) {
        const target = path.join(dir, `restored-${i}.db`);
        const restored = restoreDatabase(backup, target);
        expect(restored.movedAside).toEqual([]);
        counts.push(countTransactions(target)); // opens like the app does (migrations) and checks the ledger
      }
      // Taken while the writer kept committing: each later backup holds more.
      expect(counts[0]).toBeGreaterThan(25);
      expect(counts[1]).toBeGreaterThan(counts[0]!);
      expect(counts[2]).toBeGreaterThan(counts[1]!);
    } finally {
      writer.kill('SIGKILL'); // a crash, not a clean shutdown: the -wal stays behind
      await new Promise((r) =>
        writer.exitCode !== null || writer.signalCode !== null ? r(null) : writer.once('exit', r),
      );
    }

    // After the crash the committed writes are (partly) only in the -wal; the backup still has them all.
    expect(existsSync(`${live}-wal`)).toBe(true);
    const afterCrash = path.join(dir, 'after-crash.db');
    const summary = backupDatabase(live, afterCrash);
    expect(summary.transactions).toBe(countTransactions(live));
    expect(existsSync(`${afterCrash}-wal`)).toBe(false);
  }, 180_000);

  it('refuses to overwrite a file, to restore over a database in use, and to restore a broken backup', () => {
    const live = path.join(dir, 'second.db');
    const database = openDatabase(live);
    createUser(database);
    const backup = path.join(dir, 'second-backup.db');
    backupDatabase(live, backup);
    expect(() => backupDatabase(live, backup)).toThrow(/already exists/);

    expect(() => restoreDatabase(backup, live)).toThrow(/is in use: stop the app first/);
    database.close();
    const restored = restoreDatabase(backup, live, new Date('2026-11-23T22:00:00Z'));
    expect(restored.users).toBe(1);
    expect(restored.movedAside).toEqual([`${live}.before-restore-2026-11-23T22-00-00-000Z`]);
    expect(existsSync(restored.movedAside[0]!)).toBe(true);

    const junk = path.join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all'.repeat(300));
    expect(() => restoreDatabase(junk, live)).toThrow(BackupError);
    expect(() => verifyDatabaseFile(path.join(dir, 'missing.db'))).toThrow(/does not exist/);
  });

  it('refuses a backup whose ledger does not balance', () => {
    const file = path.join(dir, 'unbalanced.db');
    const database = openDatabase(file);
    const user = createUser(database);
    database.sqlite.prepare('UPDATE users SET coins = 500 WHERE id = ?').run(user.id); // a balance with no transaction
    database.close();
    expect(() => verifyDatabaseFile(file)).toThrow(/ledger invariant broken for 1 user/);
  });

  it('says on PostgreSQL that backups are pg_dump/PITR, and touches nothing', async () => {
    for (const cli of ['backup', 'restore']) {
      const file = path.join(dir, `not-made-by-${cli}.db`);
      const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(new URL(`../cli/${cli}.ts`, import.meta.url)), file],
          {
            env: {
              ...process.env,
              NODE_ENV: 'test',
              DATABASE_URL: 'postgres://coinsync@127.0.0.1:1/coinsync',
            },
          },
          (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      });
      expect(run.code, cli).toBe(1);
      expect(run.stderr.trim(), cli).toBe(POSTGRES_BACKUPS);
      expect(existsSync(file), cli).toBe(false);
    }
    expect(POSTGRES_BACKUPS).toMatch(/pg_dump.*docs\/deploy\.md/s);
    // A hang guard: two CLI processes start tsx and the product one after the other (20 s at load ~20).
  }, 90_000);
});
