import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, insertJoin, readCampaign, updateCampaign } from '../test/factories.ts';
import { toApiServer } from '../campaigns/campaign-view.ts';
import { sql } from 'drizzle-orm';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { ApiDiscoverServer as ApiServer } from '../shared/api-types.ts';
import { discoverFor, DISCOVER_PAGE_SIZE } from './discover-campaigns.ts';
import { refreshInviteStats } from './invite-stats.ts';

let app: TestApp;
let owner: TestClient;
let member: TestClient;
const store = () => app.server.ctx.store;
const ids = (list: { id: string }[]) => list.map((s) => s.id);

/**
 * A read of Discover after a write to campaigns. SQLite: the very next read sees every commit (TEMP
 * triggers, data_version), so one read. PostgreSQL: Discover follows commits by LISTEN/NOTIFY, so a read
 * just after a commit may come before its notification: read again until `done` holds (deadline 10 s;
 * then the caller's assertions fail on what was read), as src/joins/discover-list.test.ts does.
 * Notifications arrive in commit order, so once the last write shows, every earlier one has too.
 */
async function settled<T>(on: TestApp, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  if (on.engine === 'sqlite') return value;
  const deadline = Date.now() + 10_000;
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

/** One write from a connection of its own (another process, a maintenance script), `?` parameters. */
async function writeElsewhere(on: TestApp, text: string, params: unknown[]): Promise<void> {
  const database = on.server.config.database;
  if (database.kind === 'sqlite') {
    const other = new Database(database.path);
    try {
      other.prepare(text).run(...params);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: database.url });
  await other.connect();
  try {
    let n = 0;
    await other.query(
      text.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await other.end();
  }
}

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('list_owner');
  member = await app.signIn('list_member');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('GET /api/servers and /api/servers/featured', () => {
  it('lists what each member can still join, featured first then newest', async () => {
    const ownerId = owner.user!.id;
    const memberId = member.user!.id;
    const t = Date.UTC(2026, 0, 1);
    // The hidden ones first: once the last listed one shows, Discover has read them all (PostgreSQL).
    const full = await insertCampaign(store(), { ownerId, membersRemaining: 0, createdAt: t + 6 });
    const canceled = await insertCampaign(store(), { ownerId, canceledAt: t, createdAt: t + 7 });
    const brokenInvite = await insertCampaign(store(), { ownerId, inviteValid: false, createdAt: t + 8 });
    const canceledFeatured = await insertCampaign(store(), {
      ownerId,
      kind: 'featured',
      canceledAt: t,
      createdAt: t + 9,
    });
    const older = await insertCampaign(store(), { ownerId, name: 'Older', createdAt: t + 1 });
    const newer = await insertCampaign(store(), { ownerId, name: 'Newer', createdAt: t + 3 });
    const featured = await insertCampaign(store(), {
      ownerId,
      kind: 'featured',
      name: 'Star',
      createdAt: t + 2,
    });
    const nobot = await insertCampaign(store(), {
      ownerId,
      kind: 'nobot',
      name: 'No Bot Place',
      createdAt: t,
    });
    const membersOwn = await insertCampaign(store(), {
      ownerId: memberId,
      name: 'Member Own',
      createdAt: t + 4,
    });
    const membersOwnFeatured = await insertCampaign(store(), {
      ownerId: memberId,
      kind: 'featured',
      name: 'Member Star',
      createdAt: t + 5,
    });

    const list = await settled(
      app,
      () => member.get<ApiServer[]>('/api/servers'),
      (res) => ids(res.body).includes(membersOwnFeatured.id),
    );
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Own featured stays (the card says "Your Server"), own regular is hidden.
    expect(ids(list.body)).toEqual([membersOwnFeatured.id, featured.id, newer.id, older.id, nobot.id]);
    for (const hidden of [membersOwn, full, canceled, brokenInvite, canceledFeatured])
      expect(ids(list.body)).not.toContain(hidden.id);

    const star = list.body.find((s) => s.id === featured.id);
    expect(star).toMatchObject({
      name: 'Star',
      coinReward: '0.75',
      isFeatured: true,
      membersRemaining: 100,
      isMine: false,
    });
    // No owner ids on the wire (issue 10.7): the member's own featured card says isMine.
    expect(list.body.every((s) => !('ownerId' in s))).toBe(true);
    expect(list.body.find((s) => s.id === membersOwnFeatured.id)?.isMine).toBe(true);
    expect(list.body.find((s) => s.id === nobot.id)).toMatchObject({
      serverId: null,
      coinReward: '0.20',
      iconUrl: null,
    });
    expect(list.body.find((s) => s.id === newer.id)?.createdAt).toBe(new Date(t + 3).toISOString());

    // The owner sees the member's campaigns but not their own regular ones.
    const ownersView = ids((await owner.get<ApiServer[]>('/api/servers')).body);
    expect(ownersView).toEqual([membersOwnFeatured.id, featured.id, membersOwn.id]);

    const featuredList = await member.get<ApiServer[]>('/api/servers/featured');
    expect(featuredList.status).toBe(200);
    expect(ids(featuredList.body).sort()).toEqual([membersOwnFeatured.id, featured.id].sort());
    expect(featuredList.body.every((s) => s.isFeatured && s.membersRemaining > 0)).toBe(true);
    expect(featuredList.body.map((s) => [s.id, s.isMine])).toEqual(
      expect.arrayContaining([
        [membersOwnFeatured.id, true],
        [featured.id, false],
      ]),
    );
    // The same list seen by its owner and by someone else differs only in isMine.
    const ownersFeatured = (await owner.get<ApiServer[]>('/api/servers/featured')).body;
    expect(ownersFeatured.find((s) => s.id === featured.id)?.isMine).toBe(true);
    expect(ownersFeatured.find((s) => s.id === membersOwnFeatured.id)?.isMine).toBe(false);
  });

  it('keeps offering a campaign while the join is pending, hides it once verified, for that member only', async () => {
    const campaign = await insertCampaign(store(), {
      ownerId: owner.user!.id,
      kind: 'featured',
      name: 'Join Me',
    });
    const other = await app.signIn('list_other');
    const offered = await settled(
      app,
      () => member.get<ApiServer[]>('/api/servers'),
      (res) => ids(res.body).includes(campaign.id),
    );
    expect(ids(offered.body)).toContain(campaign.id);
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect(ids((await member.get<ApiServer[]>('/api/servers')).body)).toContain(campaign.id);
    // A member's joins are read per request (no notification to wait for).
    await app.exec(
      sql`UPDATE server_joins SET verified = TRUE, coins_awarded = TRUE WHERE server_id = ${campaign.id}`,
    );
    expect(ids((await member.get<ApiServer[]>('/api/servers')).body)).not.toContain(campaign.id);
    expect(ids((await other.get<ApiServer[]>('/api/servers')).body)).toContain(campaign.id);
    // The featured list is the same for everyone and still shows it.
    expect(ids((await member.get<ApiServer[]>('/api/servers/featured')).body)).toContain(campaign.id);
  });

  it('builds icon URLs from the guild id and icon hash', async () => {
    const campaign = await insertCampaign(store(), {
      ownerId: owner.user!.id,
      guildId: '555000000000000001',
      guildIcon: 'abc123',
    });
    const found = (
      await settled(
        app,
        () => member.get<ApiServer[]>('/api/servers'),
        (res) => ids(res.body).includes(campaign.id),
      )
    ).body.find((s) => s.id === campaign.id);
    expect(found?.iconUrl).toBe('https://cdn.discordapp.com/icons/555000000000000001/abc123.png?size=128');
  });

  it('builds the wire shape of toApiServer, with isMine and invite statistics instead of ownerId', async () => {
    const ownerId = owner.user!.id;
    const made = [
      await insertCampaign(store(), {
        ownerId,
        name: 'Quote "q" \\ émoji 🎮',
        guildId: '555000000000000002',
        guildIcon: 'a_anim',
        createdAt: Date.UTC(2026, 1, 3, 4, 5, 6, 7),
      }),
      await insertCampaign(store(), {
        ownerId,
        kind: 'featured',
        coinRewardCents: 12_345,
        createdAt: Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      }),
      await insertCampaign(store(), {
        ownerId,
        kind: 'nobot',
        guildIcon: 'ignored-without-guild',
        createdAt: Date.UTC(2026, 5, 1),
      }),
    ];
    await updateCampaign(store(), made[1]!.id, { completionNotificationSent: true });
    const all = await settled(
      app,
      () => member.get<ApiServer[]>('/api/servers?limit=100'),
      (res) => res.body.find((s) => s.id === made[1]!.id)?.completionNotificationSent === true,
    );
    const listed = [...all.body, ...(await member.get<ApiServer[]>('/api/servers/featured')).body];
    for (const campaign of made) {
      const { ownerId: _ownerId, ...expected } = toApiServer(
        (await readCampaign(store(), campaign.id))!,
        'https://cdn.discordapp.com',
      );
      for (const found of listed.filter((s) => s.id === campaign.id)) {
        expect(found).toStrictEqual({
          ...expected,
          isMine: false,
          memberCount: null,
          onlineCount: null,
          description: null,
          bannerUrl: null,
        });
      }
      expect(listed.some((s) => s.id === campaign.id)).toBe(true);
    }
  });

  it('answers an empty array when nothing is listed', async () => {
    const local = await startTestApp();
    try {
      const lonely = await local.signIn('lonely');
      expect((await lonely.get('/api/servers')).body).toEqual([]);
      expect((await lonely.get('/api/servers/featured')).body).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('sees every change to campaigns, from this process and from other connections', async () => {
    const campaign = await insertCampaign(store(), {
      ownerId: owner.user!.id,
      name: 'Changing',
      membersRemaining: 3,
    });
    const find = async () =>
      (await member.get<ApiServer[]>('/api/servers?limit=100')).body.find((s) => s.id === campaign.id);
    expect((await settled(app, find, (found) => found !== undefined))?.membersRemaining).toBe(3);
    await updateCampaign(store(), campaign.id, { membersRemaining: 2, name: 'Changed' });
    expect(await settled(app, find, (found) => found?.name === 'Changed')).toMatchObject({
      membersRemaining: 2,
      name: 'Changed',
    });

    // A second connection (another process, a maintenance script) commits to the same database.
    await writeElsewhere(app, 'UPDATE servers SET members_remaining = 0 WHERE id = ?', [campaign.id]);
    expect(await settled(app, find, (found) => found === undefined)).toBeUndefined();
    await writeElsewhere(app, 'UPDATE servers SET members_remaining = 7 WHERE id = ?', [campaign.id]);
    expect((await settled(app, find, (found) => found !== undefined))?.membersRemaining).toBe(7);
  });

  it('updates only the changed campaign on a write in this process; another connection rebuilds', async () => {
    const cache = discoverFor(app.server.ctx.store, { cdnUrl: 'https://cdn.discordapp.com' }).list;
    const campaign = await insertCampaign(store(), {
      ownerId: owner.user!.id,
      name: 'Counted',
      membersRemaining: 5,
    });
    const counted = () => member.get<ApiServer[]>('/api/servers?q=Counted');
    await settled(app, counted, (res) => ids(res.body).includes(campaign.id));
    const before = { ...cache.counters };
    await updateCampaign(store(), campaign.id, { membersRemaining: 4 });
    const seen = (await settled(app, counted, (res) => res.body[0]?.membersRemaining === 4)).body;
    expect(seen.map((s) => s.membersRemaining)).toEqual([4]);
    expect(cache.counters.rebuilds).toBe(before.rebuilds);
    expect(cache.counters.updates).toBe(before.updates + 1);
    // Creating and finishing campaigns moves single entries too.
    const fresh = await insertCampaign(store(), { ownerId: owner.user!.id, name: 'Counted Fresh' });
    await updateCampaign(store(), campaign.id, { membersRemaining: 0 });
    const finished = await settled(app, counted, (res) => !ids(res.body).includes(campaign.id));
    expect(ids(finished.body)).toEqual([fresh.id]);
    expect(cache.counters.rebuilds).toBe(before.rebuilds);
    const updatesBefore = cache.counters.updates;
    await writeElsewhere(app, 'UPDATE servers SET name = ? WHERE id = ?', ['Counted Elsewhere', fresh.id]);
    const elsewhere = await settled(app, counted, (res) => res.body[0]?.name === 'Counted Elsewhere');
    expect(elsewhere.body[0]?.name).toBe('Counted Elsewhere');
    if (app.engine === 'sqlite') {
      // SQLite learns of another connection's commit only from PRAGMA data_version: it re-reads everything.
      expect(cache.counters.rebuilds).toBe(before.rebuilds + 1);
    } else {
      // PostgreSQL's trigger notifies every writer's campaign ids alike: one entry re-read, no rebuild.
      expect(cache.counters.rebuilds).toBe(before.rebuilds);
      expect(cache.counters.updates).toBe(updatesBefore + 1);
    }
  });

  it('requires sign-in', async () => {
    expect((await app.anonymous().get('/api/servers')).status).toBe(401);
    expect((await app.anonymous().get('/api/servers/featured')).status).toBe(401);
  });
});

describe('Discover in pages', () => {
  let local: TestApp;
  let viewer: TestClient;
  let seller: TestClient;
  beforeAll(async () => {
    local = await startTestApp();
    seller = await local.signIn('paging_owner');
    viewer = await local.signIn('paging_member');
  });
  afterAll(() => local.close());

  it('walks every listed campaign exactly once, in the spec order, following the Link header', async () => {
    const ownerId = seller.user!.id;
    const t = Date.UTC(2026, 2, 1);
    // Equal creation times too: the id breaks ties, so no campaign falls between two pages.
    const made = [];
    for (let i = 0; i < 57; i += 1)
      made.push(
        await insertCampaign(local.server.ctx.store, {
          ownerId,
          kind: i % 10 === 0 ? 'featured' : 'regular',
          name: i % 3 === 0 ? `Puzzle Guild ${i}` : `Racing Club ${i}`,
          createdAt: t + Math.floor(i / 4),
        }),
      );
    const last = made.at(-1)!.id;
    await settled(
      local,
      () => viewer.get<ApiServer[]>('/api/servers?limit=100'),
      (res) => ids(res.body).includes(last),
    );
    const first = await viewer.get<ApiServer[]>('/api/servers');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(DISCOVER_PAGE_SIZE);

    const seen: ApiServer[] = [];
    let next: string | null = '/api/servers?limit=10';
    let pages = 0;
    while (next) {
      const page: Awaited<ReturnType<typeof viewer.get<ApiServer[]>>> = await viewer.get<ApiServer[]>(next);
      expect(page.status).toBe(200);
      seen.push(...page.body);
      pages += 1;
      const link = page.headers.get('link');
      next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      if (next) expect(next).toContain('limit=10');
    }
    expect(pages).toBe(6);
    // Featured first, then newest, then id: exactly the order of the whole list, each once.
    const expected = [...made].sort(
      (a, b) =>
        Number(b.isFeatured) - Number(a.isFeatured) || b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1),
    );
    expect(ids(seen)).toEqual(ids(expected));
    expect(ids(first.body)).toEqual(ids(expected).slice(0, DISCOVER_PAGE_SIZE));
  });

  it('searches on the server over all campaigns, pages included, and filters by section', async () => {
    const puzzles = (await viewer.get<ApiServer[]>('/api/servers?q=pUZZLE&limit=100')).body;
    expect(puzzles).toHaveLength(19);
    expect(puzzles.every((s) => s.name.startsWith('Puzzle Guild'))).toBe(true);
    const small = await viewer.get<ApiServer[]>('/api/servers?q=puzzle&limit=5');
    expect(small.body).toHaveLength(5);
    expect(small.headers.get('link')).toMatch(/q=puzzle.*cursor=/);
    expect((await viewer.get<ApiServer[]>('/api/servers?q=nothing-like-this')).body).toEqual([]);
    expect((await viewer.get('/api/servers?q=nothing-like-this')).headers.get('link')).toBeNull();

    const regular = (await viewer.get<ApiServer[]>('/api/servers?featured=false&limit=100')).body;
    expect(regular).toHaveLength(51);
    expect(regular.some((s) => s.isFeatured)).toBe(false);
    const featured = (await viewer.get<ApiServer[]>('/api/servers?featured=true')).body;
    expect(featured).toHaveLength(6);
    expect(
      (await viewer.get<ApiServer[]>('/api/servers/featured?q=puzzle')).body.map((s) => s.name).sort(),
    ).toEqual(['Puzzle Guild 0', 'Puzzle Guild 30']);
  });

  it('answers 400 for bad paging input and changes nothing', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1&limit=2',
      'cursor=%21%21',
      'featured=yes',
      `q=${'x'.repeat(101)}`,
    ]) {
      const res = await viewer.get<{ message: string }>(`/api/servers?${query}`);
      expect(res.status, query).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    const forged = Buffer.from('1.notanumber.x').toString('base64url');
    expect((await viewer.get(`/api/servers?cursor=${forged}`)).status).toBe(400);
  });

  it('answers the shared first page only to members whose own first page it is', async () => {
    // Discover encodes the first page once per catalogue change and hands it to every member none of
    // whose joins or campaigns it touches (decision 033). Each member here differs from it in one
    // way; the reference is their list by section (featured first, then the rest), which never uses it.
    const walkFrom = async (client: TestClient, start: string) => {
      const all: string[] = [];
      let next: string | null = start;
      while (next) {
        const page: Awaited<ReturnType<typeof client.get<ApiServer[]>>> = await client.get<ApiServer[]>(next);
        all.push(...ids(page.body));
        const link = page.headers.get('link');
        next = link ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
      }
      return all;
    };
    const walk = async (client: TestClient) => [
      ...(await walkFrom(client, '/api/servers?featured=true&limit=9')),
      ...(await walkFrom(client, '/api/servers?featured=false&limit=9')),
    ];
    const catalogue = await walk(viewer);
    // A member's joins are read per request (no notification to wait for).
    const joinAll = async (client: TestClient, campaignIds: string[]) => {
      for (const campaignId of campaignIds)
        await insertJoin(local.server.ctx.store, {
          userId: client.user!.id,
          campaignId,
          joinedAt: 1,
          verified: true,
          coinsAwarded: true,
        });
    };
    const joinedSecond = await local.signIn('paging_joined_second');
    await joinAll(joinedSecond, [catalogue[1]!]);
    const joinedRest = await local.signIn('paging_joined_rest');
    await joinAll(joinedRest, catalogue.slice(7));
    const fresh = await local.signIn('paging_fresh');
    for (const client of [viewer, fresh, joinedSecond, joinedRest, seller]) {
      const first = await client.get<ApiServer[]>('/api/servers?limit=7');
      const whole = await walk(client);
      expect(ids(first.body), client.user!.id).toEqual(whole.slice(0, 7));
      expect(first.headers.get('link') !== null, client.user!.id).toBe(whole.length > 7);
    }
    // The owner sees own featured campaigns as "mine", never the shared bytes.
    const own = await seller.get<ApiServer[]>('/api/servers?limit=7');
    expect(own.body.filter((s) => s.isMine).length).toBeGreaterThan(0);
    expect((await fresh.get<ApiServer[]>('/api/servers?limit=7')).body.some((s) => s.isMine)).toBe(false);
  });

  it('shows member and online counts, description and banner from the invite, fetched in the background', async () => {
    const sim = local.sim.state;
    const discordOwner = sim.createUser({ username: 'stats_owner' });
    const guild = sim.createGuild({
      name: 'Stats Guild',
      ownerId: discordOwner.id,
      botMember: true,
      description: 'A place to talk numbers.',
      banner: 'bannerhash',
    });
    for (let i = 0; i < 4; i++) sim.addMember(guild.id, sim.createUser({ username: `stats_member_${i}` }).id);
    const invite = sim.createInvite(guild.id, { code: 'stats-guild', maxAge: 0 });
    const campaign = await insertCampaign(local.server.ctx.store, {
      ownerId: seller.user!.id,
      name: 'Stats Guild',
      guildId: guild.id,
      inviteCode: invite.code,
    });
    const find = async () =>
      (await viewer.get<ApiServer[]>('/api/servers?q=Stats Guild')).body.find((s) => s.id === campaign.id);
    // Never fetched on the member's request: unknown until the background job ran.
    expect(await settled(local, find, (found) => found !== undefined)).toMatchObject({
      memberCount: null,
      onlineCount: null,
      description: null,
      bannerUrl: null,
    });
    const run = await refreshInviteStats(local.server.ctx);
    expect(run.fetched).toBeGreaterThanOrEqual(1);
    const invited = await fetch(`${local.sim.url}/api/v10/invites/${invite.code}?with_counts=true`);
    const real = (await invited.json()) as {
      approximate_member_count: number;
      approximate_presence_count: number;
    };
    // The owner, four members and the bot.
    expect(real.approximate_member_count).toBe(6);
    expect(real.approximate_presence_count).toBeGreaterThan(0);
    expect(await find()).toMatchObject({
      memberCount: real.approximate_member_count,
      onlineCount: real.approximate_presence_count,
      description: 'A place to talk numbers.',
      bannerUrl: `https://cdn.discordapp.com/banners/${guild.id}/bannerhash.png?size=480`,
    });
    // Fresh statistics are not fetched again on the next run.
    sim.addMember(guild.id, sim.createUser({ username: 'stats_member_late' }).id);
    await refreshInviteStats(local.server.ctx);
    expect((await find())?.memberCount).toBe(6);
    // Once stale (TTL) they are.
    local.clock.advance(16 * 60 * 1000);
    await refreshInviteStats(local.server.ctx);
    expect((await find())?.memberCount).toBe(7);
  });
});
