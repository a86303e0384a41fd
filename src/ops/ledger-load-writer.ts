// Test support (backup.test.ts): a separate process that keeps writing ledger entries to a database,
// like the running app, until it is killed. Prints "ready" after its first commit.
import { openDatabase } from '../db/client.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { users } from '../db/schema.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: ledger-load-writer.ts <database file>');
const database = openDatabase(file);
const ids = database.db
  .select({ id: users.id })
  .from(users)
  .all()
  .map((u) => u.id);
let n = 0;
const write = database.sqlite.transaction(() => {
  const userId = ids[n % ids.length]!;
  credit(database.sqlite, { userId, cents: 100 + (n % 7), type: 'hourly', now: Date.now() });
  if (n % 3 === 0) debit(database.sqlite, { userId, cents: 50, type: 'campaign', now: Date.now() });
});
const loop = () => {
  for (let i = 0; i < 20; i++) {
    write();
    n += 1;
  }
  if (n === 20) process.stdout.write('ready\n');
  setImmediate(loop);
};
loop();
