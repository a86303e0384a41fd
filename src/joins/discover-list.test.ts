import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, campaignJoins } from '../db/schema.ts';
import { campaigns as pgCampaigns, campaignJoins as pgCampaignJoins } from '../db/schema.pg.ts';
import type { DataStore, EngineKind, PgStore, SqliteStore } from '../db/engine.ts';
import type { ApiDiscoverServer } from '../shared/api-types.ts';
import { createTestStore, ENGINES, type TestStore } from '../test/db.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { insertUser } from '../test/factories.ts';
import { openDiscover, type Discover, type DiscoverQuery } from './discover-campaigns.ts';
import type { PgDiscover } from './discover-follow.ts';

// Discover's in-memory list on both engines (decisions 004/011, 028, 034): SQLite follows writes with
// TEMP triggers (this process) and PRAGMA data_version (other connections), PostgreSQL with
// LISTEN/NOTIFY (every writer, through the trigger of drizzle-pg/0002_discover_notify.sql). Each
// engine must see every kind of change from this process and from another connection, hide what the
// member joined, and answer the same pages, searches and featured lists for the same data. On SQLite a
// change is visible to the very next read; on PostgreSQL once its notification arrived (the reads below
// wait for it, up to a deadline).

const pgEnabled = await pgTestsEnabled();
const CDN = 'https://cdn.discordapp.com';
const T0 = Date.UTC(2026, 3, 1);
let n = 0;

type CampaignRow = typeof campaigns.$inferInsert & { id: string };

function campaign(ownerId: string, overrides: Partial<CampaignRow> = {}): CampaignRow {
  n += 1;
  const kind = overrides.kind ?? 'regular';
  return {
    id: randomUUID(),
    ownerId,
    name: `Guild ${n}`,
    inviteLink: `https://discord.gg/d${n}`,
    inviteCode: `d${n}`,
    kind,
    guildId: kind === 'nobot' ? null : `56000000000${String(n).padStart(7, '0')}`,
    guildIcon: null,
    coinReward: kind === 'featured' ? 75 : kind === 'nobot' ? 20 : 50,
    membersRemaining: 5,
    initialMemberSlots: 5,
    isFeatured: kind === 'featured',
    featuredAt: kind === 'featured' ? T0 + n : null,
    createdAt: T0 + n,
    ...overrides,
  };
}

async function insertCampaign(store: DataStore, row: CampaignRow): Promise<void> {
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(campaigns).values(row).run();
    else await tx.db.insert(pgCampaigns).values(row);
  });
}

async function updateCampaign(store: DataStore, id: string, set: Partial<CampaignRow>): Promise<void> {
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.update(campaigns).set(set).where(eq(campaigns.id, id)).run();
    else await tx.db.update(pgCampaigns).set(set).where(eq(pgCampaigns.id, id));
  });
}

async function insertJoin(
  store: DataStore,
  userId: string,
  campaignId: string,
  state: { verified?: boolean; coinsAwarded?: boolean; hasLeft?: boolean },
): Promise<void> {
  const row = { userId, campaignId, joinedAt: T0, verified: false, coinsAwarded: false, ...state };
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(campaignJoins).values(row).run();
    else await tx.db.insert(pgCampaignJoins).values(row);
  });
}

/** Another connection to the same database (another process, a maintenance script). */
interface OtherConnection {
  run(sql: string, ...params: unknown[]): Promise<void>;
  close(): Promise<void>;
}

async function otherConnection(store: DataStore): Promise<OtherConnection> {
  if (store.kind === 'sqlite') {
    const other = new Database((store as SqliteStore).writer.name);
    return {
      run: (text, ...params) => {
        other.prepare(text).run(...params);
        return Promise.resolve();
      },
      close: () => {
        other.close();
        return Promise.resolve();
      },
    };
  }
  const client = new pg.Client({ connectionString: (store as PgStore).pool.options.connectionString });
  await client.connect();
  return {
    run: async (text, ...params) => {
      let i = 0;
      await client.query(
        text.replace(/\?/g, () => `$${++i}`),
        params,
      );
    },
    close: () => client.end(),
  };
}

/** A regular campaign with 4 slots, inserted in SQL on the other connection. */
async function insertElsewhere(other: OtherConnection, row: CampaignRow): Promise<void> {
  await other.run(
    `INSERT INTO servers (id, owner_id, name, invite_link, invite_code, kind, server_id, members_remaining, initial_member_slots, coin_reward, created_at)
     VALUES (?, ?, ?, ?, ?, 'regular', ?, 4, 4, 50, ?)`,
    row.id,
    row.ownerId,
    row.name,
    row.inviteLink,
    row.inviteCode,
    row.guildId,
    row.createdAt,
  );
}

async function listed(discover: Discover, query: DiscoverQuery): Promise<ApiDiscoverServer[]> {
  return JSON.parse((await discover.page(query)).body.toString('utf8')) as ApiDiscoverServer[];
}

/** SQLite: true at the next read. PostgreSQL: true once the notification arrived (polled, with a deadline). */
async function sees(kind: EngineKind, check: () => Promise<boolean>, what: string): Promise<void> {
  if (kind === 'sqlite') {
    expect(await check(), what).toBe(true);
    return;
  }
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until Discover ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(ENGINES)('Discover list on %s', (kind) => {
  describe.skipIf(kind === 'pg' && !pgEnabled)('', () => {
    let t: TestStore;
    let discover: Discover;
    let owner: { id: string };
    let member: { id: string };
    beforeAll(async () => {
      t = await createTestStore(kind);
      discover = openDiscover(t.store, { cdnUrl: CDN, retryMs: 20 });
      owner = await insertUser(t.store);
      member = await insertUser(t.store);
    });
    afterAll(async () => {
      await discover?.close();
      await t?.dispose();
    });

    const find = async (id: string, userId = member.id) =>
      (await listed(discover, { userId, limit: 100 })).find((s) => s.id === id);

    it('sees an insert, an update, a cancel and slots going to zero written by this process, one campaign at a time', async () => {
      const first = campaign(owner.id, { name: 'Own Writes' });
      await insertCampaign(t.store, first);
      await sees(kind, async () => (await find(first.id)) !== undefined, 'lists the inserted campaign');
      const before = { ...discover.list.counters };

      await updateCampaign(t.store, first.id, { name: 'Own Writes Renamed', membersRemaining: 2 });
      await sees(
        kind,
        async () => (await find(first.id))?.name === 'Own Writes Renamed',
        'shows the updated campaign',
      );
      expect(await find(first.id)).toMatchObject({ membersRemaining: 2 });

      await updateCampaign(t.store, first.id, { canceledAt: T0 + 10 });
      await sees(kind, async () => (await find(first.id)) === undefined, 'drops the canceled campaign');

      const second = campaign(owner.id, { name: 'Own Writes Full', kind: 'featured' });
      await insertCampaign(t.store, second);
      await sees(kind, async () => (await find(second.id)) !== undefined, 'lists the second campaign');
      expect(JSON.parse((await discover.featured(member.id)).toString('utf8'))).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: second.id })]),
      );
      await updateCampaign(t.store, second.id, { membersRemaining: 0 });
      await sees(kind, async () => (await find(second.id)) === undefined, 'drops the full campaign');
      expect(JSON.parse((await discover.featured(member.id)).toString('utf8'))).toEqual([]);

      // Single entries moved: nothing was rebuilt.
      expect(discover.list.counters.rebuilds).toBe(before.rebuilds);
      expect(discover.list.counters.updates).toBeGreaterThan(before.updates);
    });

    it('sees an insert, an update, a cancel and slots going to zero committed by another connection', async () => {
      const other = await otherConnection(t.store);
      try {
        const row = campaign(owner.id, { name: 'Elsewhere' });
        await insertElsewhere(other, row);
        await sees(kind, async () => (await find(row.id))?.membersRemaining === 4, 'lists the insert');
        await other.run(
          'UPDATE servers SET name = ?, members_remaining = 3 WHERE id = ?',
          'Elsewhere Renamed',
          row.id,
        );
        await sees(kind, async () => (await find(row.id))?.name === 'Elsewhere Renamed', 'shows the update');
        expect((await find(row.id))?.membersRemaining).toBe(3);
        await other.run('UPDATE servers SET members_remaining = 0 WHERE id = ?', row.id);
        await sees(kind, async () => (await find(row.id)) === undefined, 'drops the full campaign');
        await other.run('UPDATE servers SET members_remaining = 6 WHERE id = ?', row.id);
        await sees(kind, async () => (await find(row.id))?.membersRemaining === 6, 'lists it again');
        await other.run('UPDATE servers SET canceled_at = ? WHERE id = ?', T0 + 20, row.id);
        await sees(kind, async () => (await find(row.id)) === undefined, 'drops the canceled campaign');
      } finally {
        await other.close();
      }
    });

    it('settled(): the next read sees every write committed before it, by this process or another connection', async () => {
      const other = await otherConnection(t.store);
      try {
        for (let i = 0; i < 10; i++) {
          const own = campaign(owner.id, { name: `Settled Own ${i}` });
          await insertCampaign(t.store, own);
          const row = campaign(owner.id, { name: `Settled Elsewhere ${i}` });
          await insertElsewhere(other, row);
          await discover.settled();
          // No polling: settled() is the wait.
          expect(await find(own.id), `own write ${i}`).toBeDefined();
          expect(await find(row.id), `other connection's write ${i}`).toBeDefined();
          await updateCampaign(t.store, own.id, { canceledAt: T0 + 30 });
          await discover.settled();
          expect(await find(own.id), `own cancel ${i}`).toBeUndefined();
        }
        // With nothing written, settling re-reads nothing (its marker is not a campaign id).
        const before = { ...discover.list.counters };
        await discover.settled();
        await discover.settled();
        expect(discover.list.counters).toEqual(before);
      } finally {
        await other.close();
      }
    });

    it('hides what the member joined (not a pending join) and their own regular campaigns, shows their own featured as theirs', async () => {
      const viewer = await insertUser(t.store);
      const pending = campaign(owner.id, { name: 'Pending Join' });
      const verified = campaign(owner.id, { name: 'Verified Join' });
      const left = campaign(owner.id, { name: 'Left Join' });
      const ownRegular = campaign(viewer.id, { name: 'Own Regular' });
      const ownFeatured = campaign(viewer.id, { name: 'Own Featured', kind: 'featured' });
      for (const c of [pending, verified, left, ownRegular, ownFeatured]) await insertCampaign(t.store, c);
      await insertJoin(t.store, viewer.id, pending.id, {});
      await insertJoin(t.store, viewer.id, verified.id, { verified: true, coinsAwarded: true });
      await insertJoin(t.store, viewer.id, left.id, { verified: true, hasLeft: true });
      await sees(
        kind,
        async () => (await find(ownFeatured.id)) !== undefined && (await find(left.id)) !== undefined,
        'lists the new campaigns',
      );
      const seen = await listed(discover, { userId: viewer.id, limit: 100 });
      const ids = seen.map((s) => s.id);
      expect(ids).toContain(pending.id);
      expect(ids).not.toContain(verified.id);
      expect(ids).not.toContain(left.id);
      expect(ids).not.toContain(ownRegular.id);
      expect(seen.find((s) => s.id === ownFeatured.id)?.isMine).toBe(true);
      // Someone else sees them all, none as theirs.
      const others = await listed(discover, { userId: member.id, limit: 100 });
      for (const c of [pending, verified, left, ownRegular, ownFeatured])
        expect(others.find((s) => s.id === c.id)?.isMine).toBe(false);
    });

    it.runIf(kind === 'pg')(
      'rebuilds after its listening connection was lost, with what was written meanwhile',
      async () => {
        const pgDiscover = discover as PgDiscover;
        await pgDiscover.ready;
        const store = t.store as PgStore;
        const row = campaign(owner.id, { name: 'While Away' });
        await insertCampaign(t.store, row);
        await sees(kind, async () => (await find(row.id)) !== undefined, 'lists the campaign');
        const rebuilds = discover.list.counters.rebuilds;
        const { rows } = await store.pool.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'coinsync-discover-listener' AND datname = current_database()",
        );
        expect(rows).toHaveLength(1);
        await store.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        // Written while (or just before) nobody listened: only the rebuild can bring it.
        await updateCampaign(t.store, row.id, { name: 'While Away Renamed' });
        const deadline = Date.now() + 10_000;
        while (!(pgDiscover.listening && discover.list.counters.rebuilds > rebuilds)) {
          if (Date.now() > deadline)
            throw new Error('timed out waiting for the listener to reconnect and rebuild');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect((await find(row.id))?.name).toBe('While Away Renamed');
        // And it hears later writes again.
        await updateCampaign(t.store, row.id, { membersRemaining: 0 });
        await sees(
          kind,
          async () => (await find(row.id)) === undefined,
          'drops the full campaign after reconnecting',
        );
      },
    );
  });
});

describe.skipIf(!pgEnabled)('Discover answers on SQLite and PostgreSQL for the same data', () => {
  const stores: { kind: EngineKind; t: TestStore; discover: Discover; owner: string; viewer: string }[] = [];
  beforeAll(async () => {
    // One catalogue, same ids, on both engines: featured, regular and no-bot campaigns, equal creation
    // times (the id breaks ties), searchable names, and some the viewer joined or owns.
    const seller = 'seller';
    const rows: CampaignRow[] = Array.from({ length: 57 }, (_, i) =>
      campaign(seller, {
        kind: i % 10 === 0 ? 'featured' : i % 7 === 0 ? 'nobot' : 'regular',
        name: i % 3 === 0 ? `Puzzle Guild ${i}` : `Racing Club ${i}`,
        createdAt: T0 + Math.floor(i / 4),
        guildIcon: i % 5 === 0 ? `icon${i}` : null,
      }),
    );
    const viewerStar = campaign(seller, { kind: 'featured', name: 'Viewer Star', id: 'viewer-star' });
    for (const kind of ENGINES) {
      const t = await createTestStore(kind);
      const owner = await insertUser(t.store);
      const viewer = await insertUser(t.store);
      for (const row of rows)
        await insertCampaign(t.store, { ...row, ownerId: row.ownerId === seller ? owner.id : viewer.id });
      await insertCampaign(t.store, { ...viewerStar, ownerId: viewer.id });
      await insertJoin(t.store, viewer.id, rows[1]!.id, { verified: true, coinsAwarded: true });
      await insertJoin(t.store, viewer.id, rows[12]!.id, { verified: true, hasLeft: true });
      await insertJoin(t.store, viewer.id, rows[2]!.id, {});
      stores.push({
        kind,
        t,
        discover: openDiscover(t.store, { cdnUrl: CDN, retryMs: 20 }),
        owner: owner.id,
        viewer: viewer.id,
      });
    }
  });
  afterAll(async () => {
    for (const s of stores) {
      await s.discover.close();
      await s.t.dispose();
    }
  });

  /** Every page of one query, following the cursors, as raw bytes. */
  const walk = async (s: (typeof stores)[number], userId: string, query: Omit<DiscoverQuery, 'userId'>) => {
    const bodies: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await s.discover.page({ userId, ...query, cursor });
      bodies.push(page.body.toString('utf8'));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return bodies;
  };

  it('pages, searches, filters and lists featured campaigns byte for byte alike', async () => {
    const [sqlite, pgStore] = stores;
    const queries: Omit<DiscoverQuery, 'userId'>[] = [
      { limit: 24 },
      { limit: 10 },
      { limit: 7, q: 'puzzle' },
      { limit: 100, q: 'RACING club 4' },
      { limit: 5, featured: true },
      { limit: 9, featured: false },
      { limit: 3, q: 'nothing like this' },
    ];
    for (const who of ['viewer', 'owner'] as const) {
      for (const query of queries) {
        const a = await walk(sqlite!, sqlite![who], query);
        const b = await walk(pgStore!, pgStore![who], query);
        expect(b, `${who} ${JSON.stringify(query)}`).toEqual(a);
      }
      for (const q of [undefined, 'puzzle', 'star']) {
        const a = (await sqlite!.discover.featured(sqlite![who], q)).toString('utf8');
        const b = (await pgStore!.discover.featured(pgStore![who], q)).toString('utf8');
        expect(b, `${who} featured ${q}`).toEqual(a);
      }
    }
    // The walk is the whole catalogue the viewer may join: not what they joined, not their own regular.
    const all = (await walk(sqlite!, sqlite!.viewer, { limit: 100 })).flatMap(
      (body) => JSON.parse(body) as ApiDiscoverServer[],
    );
    expect(all).toHaveLength(57 + 1 - 2);
    expect(all.filter((s) => s.isMine).map((s) => s.id)).toEqual(['viewer-star']);
  });
});
