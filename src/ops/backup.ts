import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { findLedgerMismatchesSync } from '../ledger/ledger.ts';
import { errorMessage } from './error-text.ts';

// Online backups and restores of the SQLite database (decision 010). A copy of the database file
// alone is not a backup: in WAL mode recent commits live in the -wal file until a checkpoint, so a
// bare copy can miss them or (taken mid-write) be torn. VACUUM INTO writes a consistent snapshot —
// one read transaction — into a new standalone file while the app keeps writing.

export class BackupError extends Error {}

/** What `npm run backup`/`restore` answer with DATABASE_URL set: they copy the SQLite file only. */
export const POSTGRES_BACKUPS =
  'DATABASE_URL is set: this database is PostgreSQL, and `npm run backup`/`npm run restore` copy the SQLite ' +
  'file only. Back PostgreSQL up with pg_dump (a consistent snapshot while the app runs) and continuous ' +
  'archiving for point-in-time recovery; restore with pg_restore into a new database. See docs/deploy.md, ' +
  '"Backups on PostgreSQL".';

export interface DatabaseFileSummary {
  path: string;
  bytes: number;
  users: number;
  transactions: number;
}

/** quick_check plus the ledger invariant (balance == sum of transactions for every user). */
export function verifyDatabaseFile(path: string): DatabaseFileSummary {
  if (!existsSync(path)) throw new BackupError(`${path} does not exist`);
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const check = (sqlite.pragma('quick_check(20)') as { quick_check: string }[]).map((r) => r.quick_check);
    if (check.length !== 1 || check[0] !== 'ok')
      throw new BackupError(`${path} fails PRAGMA quick_check: ${check.join('; ')}`);
    const hasLedger = sqlite
      .prepare(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('users', 'transactions')",
      )
      .get() as {
      n: number;
    };
    if (hasLedger.n !== 2)
      throw new BackupError(`${path} has no users/transactions tables: not a CoinSync database`);
    const mismatches = findLedgerMismatchesSync(sqlite);
    if (mismatches.length > 0) {
      throw new BackupError(
        `${path}: ledger invariant broken for ${mismatches.length} user(s), e.g. ${JSON.stringify(mismatches[0])}`,
      );
    }
    const count = (table: string) =>
      (sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { path, bytes: statSync(path).size, users: count('users'), transactions: count('transactions') };
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${path} cannot be read as a database: ${errorMessage(err)}`);
  } finally {
    sqlite.close();
  }
}

/**
 * Copies the live database at `source` into a new file `destination` while the app runs, then checks
 * the copy. The copy is written under a temporary name and renamed at the end, so a file at
 * `destination` is always a complete, checked backup. Refuses to overwrite an existing file.
 */
export function backupDatabase(source: string, destination: string): DatabaseFileSummary {
  if (!existsSync(source)) throw new BackupError(`No database at ${source} (DATABASE_PATH)`);
  if (existsSync(destination)) throw new BackupError(`${destination} already exists; choose a new file name`);
  mkdirSync(dirname(destination), { recursive: true });
  const partial = `${destination}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const sqlite = new Database(source, { readonly: true, fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 10000');
    sqlite.prepare('VACUUM INTO ?').run(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new BackupError(`Backup of ${source} failed: ${errorMessage(err)}`);
  } finally {
    sqlite.close();
  }
  try {
    verifyDatabaseFile(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  renameSync(partial, destination);
  return { ...verifyDatabaseFile(destination), path: destination };
}

/** Whether another connection (the running app) has the database open: an exclusive lock is refused. */
export function isDatabaseInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const sqlite = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.exec('BEGIN EXCLUSIVE; COMMIT');
    return false;
  } catch {
    return true;
  } finally {
    sqlite.close();
  }
}

export interface RestoreResult extends DatabaseFileSummary {
  /** Where the replaced database (and its -wal/-shm) were moved; nothing is deleted. */
  movedAside: string[];
}

/**
 * Puts a checked backup in place of the database at `target`. The app must be stopped (refused when
 * the database is in use). The current file and its -wal/-shm are kept beside it, renamed
 * `<name>.before-restore-<time>`, never deleted.
 */
export function restoreDatabase(backup: string, target: string, now = new Date()): RestoreResult {
  verifyDatabaseFile(backup);
  if (isDatabaseInUse(target)) {
    throw new BackupError(
      `${target} is in use: stop the app first (pm2 stop coinsync), then run the restore again`,
    );
  }
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const movedAside: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    const file = `${target}${suffix}`;
    if (!existsSync(file)) continue;
    const aside = `${target}.before-restore-${stamp}${suffix}`;
    renameSync(file, aside);
    movedAside.push(aside);
  }
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.restoring-${process.pid}`;
  copyFileSync(backup, partial);
  renameSync(partial, target);
  return { ...verifyDatabaseFile(target), movedAside };
}
