import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openPgDatabase, type PgDatabase } from '../../src/db/pg-client.ts';
import { storageFailureCode } from '../../src/shared/errors.ts';
import { admin, createPgTestDatabase, pgTestsEnabled, type PgTestDatabase } from '../../src/test/pg.ts';
import { startTcpProxy, type DrillProxy } from './tcp-proxy.ts';

// The fault drill found that a PostgreSQL server that stops answering (a hung host, a partition) held
// every member's request for as long as the hang lasted: the pool had no connection or query time limit.
// Through the drill's proxy: a hang now fails queries and connection attempts within the pool's limits,
// as storage trouble (the API's 503), and the pool works again once the server answers.

describe.skipIf(!(await pgTestsEnabled()))('PostgreSQL pool time limits (a server that hangs)', () => {
  let database: PgTestDatabase;
  let proxy: DrillProxy;
  let throughProxy: PgDatabase;

  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 2 });
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    throughProxy = await openPgDatabase(url.toString(), {
      max: 1,
      migrate: false,
      connectionTimeoutMs: 500,
      queryTimeoutMs: 700,
    });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await throughProxy.close().catch(() => undefined);
    await proxy.close();
    await database.dispose();
  });

  it('fails a query, and the next waiting for a connection, as storage trouble; works again afterwards', async () => {
    const one = () => throughProxy.db.execute(sql`SELECT 1 AS one`);
    expect((await one()).rows).toEqual([{ one: 1 }]);

    proxy.hang();
    // The pooled connection is open but nothing comes back: the query's own limit ends it.
    const hung = await one().then(
      () => 'answered',
      (err: unknown) => err,
    );
    expect(storageFailureCode(hung), String(hung)).toBeDefined();
    // A new connection through the hung proxy never completes its start-up: the connection limit ends it.
    const connecting = await one().then(
      () => 'answered',
      (err: unknown) => err,
    );
    expect(storageFailureCode(connecting), String(connecting)).toBeDefined();

    await proxy.restore();
    expect((await one()).rows).toEqual([{ one: 1 }]);
    // The server itself was never touched (only the proxy hung).
    expect(await admin((c) => c.query<{ one: number }>('SELECT 1 AS one').then((r) => r.rows))).toEqual([
      { one: 1 },
    ]);
  });
});
