// `npm run restore -- <backup file>`: with the app STOPPED, puts a checked backup in place of
// DATABASE_PATH. The replaced files are kept as <name>.before-restore-<time>. See README "Backups".
import { loadConfig } from '../config.ts';
import { runCli } from './run.ts';
import { BackupError, POSTGRES_BACKUPS, restoreDatabase } from '../ops/backup.ts';

function main(argv: string[]): number {
  const backup = argv[0];
  if (!backup || argv.length > 1) {
    console.error('Usage: npm run restore -- <backup file>   (stop the app first: pm2 stop coinsync)');
    return 2;
  }
  const config = loadConfig(process.env);
  if (config.database.kind === 'pg') throw new BackupError(POSTGRES_BACKUPS);
  const result = restoreDatabase(backup, config.databasePath);
  console.log(
    `Restored ${backup} to ${config.databasePath}: ${result.users} users, ${result.transactions} transactions; ` +
      `quick_check ok, ledger balanced.`,
  );
  for (const file of result.movedAside) console.log(`Kept the replaced file as ${file}`);
  console.log('Start the app again (pm2 start coinsync); migrations newer than the backup run at start-up.');
  return 0;
}

await runCli(main, [BackupError]);
