// Test support (backup.test.ts): a separate process that keeps writing ledger entries to a database,
// like the running app, until it is killed. Prints "ready" after its first commit. Writes as the app
// does: through the SQLite store (src/db/engine.ts) and the async ledger.
import { openDatabase } from '../db/client.ts';
import { createSqliteStore } from '../db/engine.ts';
import { credit, debit } from '../ledger/index.ts';
import { users } from '../db/schema.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: ledger-load-writer.ts <database file>');
const database = openDatabase(file);
const store = createSqliteStore(database, file);
const ids = store.read.db
  .select({ id: users.id })
  .from(users)
  .all()
  .map((u) => u.id);
let n = 0;
const write = () =>
  store.transaction(async (tx) => {
    const userId = ids[n % ids.length]!;
    await credit(tx, { userId, cents: 100 + (n % 7), type: 'hourly', now: Date.now() });
    if (n % 3 === 0) await debit(tx, { userId, cents: 50, type: 'campaign', now: Date.now() });
  });
const loop = async () => {
  for (let i = 0; i < 20; i++) {
    await write();
    n += 1;
  }
  if (n === 20) process.stdout.write('ready\n');
  setImmediate(() => void loop());
};
await loop();
