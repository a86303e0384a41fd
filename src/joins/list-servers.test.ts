import { serverJoins } from '../db/schema.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { createCampaign, findCampaign } from '../test/factories.ts';
import { toApiServer } from '../servers/server-view.ts';
import { servers } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import Database from 'better-sqlite3';
import type { ApiServer } from '../shared/api-types.ts';

let app: TestApp;
let owner: TestClient;
let member: TestClient;
const db = () => app.server.ctx.db;
const ids = (list: ApiServer[]) => list.map((s) => s.id);

beforeAll(async () => {
  app = await startTestApp();
  owner = await app.signIn('list_owner');
  member = await app.signIn('list_member');
});
afterAll(() => app.close());
afterEach(() => app.assertLedger());

describe('GET /api/servers and /api/servers/featured', () => {
  it('lists what each member can still join, featured first then newest', async () => {
    const ownerId = owner.user!.id;
    const memberId = member.user!.id;
    const t = Date.UTC(2026, 0, 1);
    const older = createCampaign(db(), { ownerId, name: 'Older', createdAt: t + 1 });
    const newer = createCampaign(db(), { ownerId, name: 'Newer', createdAt: t + 3 });
    const featured = createCampaign(db(), { ownerId, kind: 'featured', name: 'Star', createdAt: t + 2 });
    const nobot = createCampaign(db(), { ownerId, kind: 'nobot', name: 'No Bot Place', createdAt: t });
    const membersOwn = createCampaign(db(), { ownerId: memberId, name: 'Member Own', createdAt: t + 4 });
    const membersOwnFeatured = createCampaign(db(), {
      ownerId: memberId,
      kind: 'featured',
      name: 'Member Star',
      createdAt: t + 5,
    });
    const full = createCampaign(db(), { ownerId, membersRemaining: 0, createdAt: t + 6 });
    const canceled = createCampaign(db(), { ownerId, canceledAt: t, createdAt: t + 7 });
    const brokenInvite = createCampaign(db(), { ownerId, inviteValid: false, createdAt: t + 8 });
    const canceledFeatured = createCampaign(db(), {
      ownerId,
      kind: 'featured',
      canceledAt: t,
      createdAt: t + 9,
    });

    const list = await member.get<ApiServer[]>('/api/servers');
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
      ownerId,
    });
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
  });

  it('keeps offering a campaign while the join is pending, hides it once verified, for that member only', async () => {
    const campaign = createCampaign(db(), { ownerId: owner.user!.id, kind: 'featured', name: 'Join Me' });
    const other = await app.signIn('list_other');
    expect(ids((await member.get<ApiServer[]>('/api/servers')).body)).toContain(campaign.id);
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect(ids((await member.get<ApiServer[]>('/api/servers')).body)).toContain(campaign.id);
    app.server.ctx.db
      .update(serverJoins)
      .set({ verified: true, coinsAwarded: true })
      .where(eq(serverJoins.serverId, campaign.id))
      .run();
    expect(ids((await member.get<ApiServer[]>('/api/servers')).body)).not.toContain(campaign.id);
    expect(ids((await other.get<ApiServer[]>('/api/servers')).body)).toContain(campaign.id);
    // The featured list is the same for everyone and still shows it.
    expect(ids((await member.get<ApiServer[]>('/api/servers/featured')).body)).toContain(campaign.id);
  });

  it('builds icon URLs from the guild id and icon hash', async () => {
    const campaign = createCampaign(db(), {
      ownerId: owner.user!.id,
      guildId: '555000000000000001',
      serverIcon: 'abc123',
    });
    const found = (await member.get<ApiServer[]>('/api/servers')).body.find((s) => s.id === campaign.id);
    expect(found?.iconUrl).toBe('https://cdn.discordapp.com/icons/555000000000000001/abc123.png?size=128');
  });

  it('builds exactly the wire shape of toApiServer in SQL', async () => {
    const ownerId = owner.user!.id;
    const made = [
      createCampaign(db(), {
        ownerId,
        name: 'Quote "q" \\ émoji 🎮',
        guildId: '555000000000000002',
        serverIcon: 'a_anim',
        createdAt: Date.UTC(2026, 1, 3, 4, 5, 6, 7),
      }),
      createCampaign(db(), {
        ownerId,
        kind: 'featured',
        coinRewardCents: 12_345,
        createdAt: Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      }),
      createCampaign(db(), {
        ownerId,
        kind: 'nobot',
        serverIcon: 'ignored-without-guild',
        createdAt: Date.UTC(2026, 5, 1),
      }),
    ];
    db().update(servers).set({ completionNotificationSent: true }).where(eq(servers.id, made[1]!.id)).run();
    const listed = [
      ...(await member.get<ApiServer[]>('/api/servers')).body,
      ...(await member.get<ApiServer[]>('/api/servers/featured')).body,
    ];
    for (const campaign of made) {
      const expected = toApiServer(findCampaign(db(), campaign.id)!, 'https://cdn.discordapp.com');
      for (const found of listed.filter((s) => s.id === campaign.id)) expect(found).toStrictEqual(expected);
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
    const campaign = createCampaign(db(), { ownerId: owner.user!.id, name: 'Changing', membersRemaining: 3 });
    const find = async () =>
      (await member.get<ApiServer[]>('/api/servers')).body.find((s) => s.id === campaign.id);
    expect((await find())?.membersRemaining).toBe(3);
    db()
      .update(servers)
      .set({ membersRemaining: 2, name: 'Changed' })
      .where(eq(servers.id, campaign.id))
      .run();
    expect(await find()).toMatchObject({ membersRemaining: 2, name: 'Changed' });

    // A second connection (another process, a maintenance script) commits to the same file.
    const other = new Database(app.server.config.databasePath);
    try {
      other.prepare('UPDATE servers SET members_remaining = 0 WHERE id = ?').run(campaign.id);
      expect(await find()).toBeUndefined();
      other.prepare('UPDATE servers SET members_remaining = 7 WHERE id = ?').run(campaign.id);
      expect((await find())?.membersRemaining).toBe(7);
    } finally {
      other.close();
    }
  });

  it('requires sign-in', async () => {
    expect((await app.anonymous().get('/api/servers')).status).toBe(401);
    expect((await app.anonymous().get('/api/servers/featured')).status).toBe(401);
  });
});
