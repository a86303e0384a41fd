import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgTestDatabase, createPgUser, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { waitFor } from '../bot/bot-test-kit.ts';
import { startDiscoverListener, type DiscoverListener } from './discover-follow.ts';

// The Discover list's cross-process path on PostgreSQL (decision 028): the trigger of migration
// drizzle-pg/0002_discover_notify.sql sends every write to a campaign row to every listener at commit,
// none on rollback, and a listener whose connection was killed rebuilds and keeps listening.
// src/joins/discover-list.test.ts holds the list on top of it to the SQLite list's cases.

describe.skipIf(!(await pgTestsEnabled()))('Discover change notifications (PostgreSQL)', () => {
  let database: PgTestDatabase;
  let owner: { id: string };
  const listeners: DiscoverListener[] = [];
  /** What each listener was told, as two "processes" would be. */
  const seen: { changed: string[]; resets: number }[] = [];

  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 4 });
    // The migration installed the trigger; its SQL is idempotent (running it again replaces, so
    // notifications below still arrive once).
    const migration = readFileSync(
      new URL('../../drizzle-pg/0002_discover_notify.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint')) await database.pool.query(statement);
    owner = await createPgUser(database);
    for (let i = 0; i < 2; i++) {
      const log = { changed: [] as string[], resets: 0 };
      seen.push(log);
      listeners.push(
        startDiscoverListener({
          connectionString: database.url,
          onChanged: (ids) => log.changed.push(...ids),
          onReset: () => (log.resets += 1),
          retryMs: 20,
        }),
      );
    }
    await Promise.all(listeners.map((l) => l.ready));
  });
  afterAll(async () => {
    for (const l of listeners) await l.close();
    await database?.dispose();
  });

  const insertCampaign = async (client: { query: PgTestDatabase['pool']['query'] } = database.pool) => {
    const id = randomUUID();
    await client.query(
      `INSERT INTO servers (id, owner_id, name, invite_link, server_id, members_remaining, initial_member_slots, created_at)
       VALUES ($1, $2, 'Notified', 'https://discord.gg/x', '123456789012345678', 5, 5, $3)`,
      [id, owner.id, Date.now()],
    );
    return id;
  };
  const everyoneSaw = (id: string) => seen.every((s) => s.changed.includes(id));

  it('tells every listening process about inserted, updated and deleted campaigns', async () => {
    const id = await insertCampaign();
    await waitFor(() => everyoneSaw(id), 10_000, 'insert notified');
    for (const s of seen) s.changed.length = 0;
    await database.pool.query('UPDATE servers SET members_remaining = members_remaining - 1 WHERE id = $1', [
      id,
    ]);
    await waitFor(() => everyoneSaw(id), 10_000, 'update notified');
    for (const s of seen) s.changed.length = 0;
    await database.pool.query('DELETE FROM servers WHERE id = $1', [id]);
    await waitFor(() => everyoneSaw(id), 10_000, 'delete notified');
  });

  it('delivers at commit, once per campaign and transaction, and nothing for a rolled-back write', async () => {
    for (const s of seen) s.changed.length = 0;
    const client = await database.pool.connect();
    let committed: string;
    let rolledBack: string;
    try {
      await client.query('BEGIN');
      rolledBack = await insertCampaign(client);
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      committed = await insertCampaign(client);
      for (let i = 0; i < 3; i++)
        await client.query('UPDATE servers SET members_remaining = members_remaining - 1 WHERE id = $1', [
          committed,
        ]);
      // A marker written by another session and committed first: once it arrives, anything the open
      // transaction had sent early would have arrived too (one connection delivers in commit order).
      const marker = await insertCampaign();
      await waitFor(() => everyoneSaw(marker), 10_000, 'marker');
      for (const s of seen) expect(s.changed).not.toContain(committed);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await waitFor(() => everyoneSaw(committed), 10_000, 'commit notified');
    const after = await insertCampaign();
    await waitFor(() => everyoneSaw(after), 10_000, 'later write');
    for (const s of seen) {
      expect(s.changed.filter((id) => id === committed)).toHaveLength(1);
      expect(s.changed).not.toContain(rolledBack);
    }
  });

  it('a listener whose connection is killed reconnects, asks for a rebuild, and hears later writes', async () => {
    const [victim] = await database.pool
      .query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'coinsync-discover-listener' AND datname = $1 LIMIT 1",
        [database.name],
      )
      .then((r) => r.rows);
    expect(victim).toBeDefined();
    const resetsBefore = seen.map((s) => s.resets);
    await database.pool.query('SELECT pg_terminate_backend($1)', [victim!.pid]);
    await waitFor(
      () => seen.some((s, i) => s.resets > resetsBefore[i]!) && listeners.every((l) => l.listening),
      10_000,
      'reconnected with a rebuild',
    );
    expect(seen.map((s, i) => s.resets - resetsBefore[i]!).sort()).toEqual([0, 1]);
    const id = await insertCampaign();
    await waitFor(() => everyoneSaw(id), 10_000, 'heard after reconnect');
  });
});
