// `npm run backup -- <file>`: a consistent online copy of DATABASE_PATH (VACUUM INTO) while the app
// runs, checked (quick_check + ledger invariant) before it gets its final name. See README "Backups".
import { loadConfig } from '../config.ts';
import { runCli } from './run.ts';
import { BackupError, backupDatabase, POSTGRES_BACKUPS } from '../ops/backup.ts';

function main(argv: string[]): number {
  const destination = argv[0];
  if (!destination || argv.length > 1) {
    console.error('Usage: npm run backup -- <backup file>   (e.g. backups/coinsync-$(date +%F-%H%M).db)');
    return 2;
  }
  const config = loadConfig(process.env);
  if (config.database.kind === 'pg') throw new BackupError(POSTGRES_BACKUPS);
  const started = Date.now();
  const summary = backupDatabase(config.databasePath, destination);
  console.log(
    `Backed up ${config.databasePath} to ${summary.path} in ${Date.now() - started} ms: ${summary.bytes} bytes, ` +
      `${summary.users} users, ${summary.transactions} transactions; quick_check ok, ledger balanced.`,
  );
  return 0;
}

await runCli(main, [BackupError]);
