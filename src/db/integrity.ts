import type { Database } from 'better-sqlite3';
import { errorMessage } from '../ops/error-text.ts';

/** The database file is damaged: the process must not start on it (decision 010). */
export class DatabaseIntegrityError extends Error {
  constructor(path: string, problems: string[]) {
    super(
      [
        `Database ${path} is damaged; refusing to start. PRAGMA quick_check reported:`,
        ...problems.slice(0, 10).map((p) => `  - ${p}`),
        ...(problems.length > 10 ? [`  - … and ${problems.length - 10} more`] : []),
        'Stop here and restore the latest backup (README, "Backups": npm run restore -- <backup file>).',
        'Keep the damaged file (and its -wal) for investigation; do not delete them.',
      ].join('\n'),
    );
    this.name = 'DatabaseIntegrityError';
  }
}

/** SQLite's own error codes for a damaged or foreign file. */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === 'SQLITE_CORRUPT' ||
    code === 'SQLITE_NOTADB' ||
    (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT_'))
  );
}

/**
 * PRAGMA quick_check: the b-tree structure of every table and index, page by page (not the contents
 * of indexes against their tables, which integrity_check adds at several times the cost). Throws a
 * DatabaseIntegrityError naming the problems.
 */
export function assertDatabaseIntact(sqlite: Database, path: string): void {
  let rows: { quick_check: string }[];
  try {
    rows = sqlite.pragma('quick_check(100)') as { quick_check: string }[];
  } catch (err) {
    throw new DatabaseIntegrityError(path, [errorMessage(err)]);
  }
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) throw new DatabaseIntegrityError(path, problems);
}
