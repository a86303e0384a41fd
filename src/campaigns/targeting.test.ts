import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { ApiDiscoverServer, ApiServer } from '../shared/api-types.ts';
import { TARGETING_MESSAGES } from '../shared/targeting.ts';
import { findFarmPage } from '../bot/commands/farm.ts';
import { addJoin, createGuildWithInvite, signInWithCoins } from './test-support.ts';

// Issue 31 item 2: targeting by Discord account age and language. Submit stores it (above the
// platform's minimum only), Discover, the featured list and /farm hide a campaign from members outside
// its audience, and the website join and the no-bot claim refuse them with a 403 that changes nothing.
// Runs on SQLite here and again on PostgreSQL in the pg step (it starts the app through the harness).

const DAY = 86_400_000;
let app: TestApp;
let owner: TestClient;
/** 30-day-old account, English. */
let young: TestClient;
/** 400-day-old account, English (en-US). */
let veteranEn: TestClient;
/** 400-day-old account, French (fr). */
let veteranFr: TestClient;

async function member(username: string, ageDays: number, locale?: string): Promise<TestClient> {
  const user = app.sim.state.createUser({ username, createdAt: app.clock.now() - ageDays * DAY });
  if (locale) app.sim.state.setUserLocale(user.id, locale);
  return app.signIn(username);
}

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'target_owner', 995);
  young = await member('target_young', 30);
  veteranEn = await member('target_vet_en', 400, 'en-US');
  veteranFr = await member('target_vet_fr', 400, 'fr');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function submit(
  targeting: Record<string, unknown> | undefined,
  opts: { nobot?: boolean; name?: string } = {},
) {
  const { link } = createGuildWithInvite(app, owner, { botMember: !opts.nobot });
  const name = opts.name ?? 'Targeted Place';
  return opts.nobot
    ? owner.post<ApiServer>('/api/servers/no-bot', { name, inviteLink: link, memberCount: '5', targeting })
    : owner.post<ApiServer>('/api/servers', { name, inviteLink: link, coinReward: '5', targeting });
}

async function discoverIds(client: TestClient, path = '/api/servers?limit=100'): Promise<string[]> {
  await app.discoverSettled();
  return (await client.get<ApiDiscoverServer[]>(path)).body.map((s) => s.id);
}

describe('targeting at submit', () => {
  it('stores the audience and shows it on the campaign', async () => {
    const res = await submit({ minAccountAgeDays: 90, language: 'fr' });
    expect(res.status).toBe(201);
    expect(res.body.targeting).toEqual({ minAccountAgeDays: 90, language: 'fr' });
    const plain = await submit(undefined);
    expect(plain.body.targeting).toEqual({ minAccountAgeDays: null, language: null });
  });

  it('refuses an age at or below the platform minimum, and bad values, with a 400 that charges nothing', async () => {
    const before = await owner.balanceCents();
    expect(await submit({ minAccountAgeDays: 7 })).toMatchObject({
      status: 400,
      body: {
        message: 'Minimum account age must be more than 7 days (every member is already at least 7 days old)',
      },
    });
    for (const targeting of [
      { minAccountAgeDays: 'ninety' },
      { minAccountAgeDays: 12.5 },
      { minAccountAgeDays: 99_999 },
    ])
      expect(await submit(targeting)).toMatchObject({
        status: 400,
        body: { message: TARGETING_MESSAGES.accountAge },
      });
    expect(await submit({ language: 'klingon' })).toMatchObject({
      status: 400,
      body: { message: TARGETING_MESSAGES.language },
    });
    expect((await submit({ language: 'fr', extra: 1 })).status).toBe(400);
    expect(await owner.balanceCents()).toBe(before);
  });
});

describe('who sees and who may join', () => {
  let oldOnly: ApiServer;
  let frenchOnly: ApiServer;
  let open: ApiServer;

  beforeAll(async () => {
    oldOnly = (await submit({ minAccountAgeDays: 180 }, { name: 'Veterans Hall' })).body;
    frenchOnly = (await submit({ language: 'fr' }, { name: 'Salon Francais' })).body;
    open = (await submit(undefined, { name: 'Open Door' })).body;
  });

  it('Discover lists a campaign only to members in its audience', async () => {
    const youngSees = await discoverIds(young);
    expect(youngSees).toContain(open.id);
    expect(youngSees).not.toContain(oldOnly.id);
    expect(youngSees).not.toContain(frenchOnly.id);

    const enSees = await discoverIds(veteranEn);
    expect(enSees).toEqual(expect.arrayContaining([open.id, oldOnly.id]));
    expect(enSees).not.toContain(frenchOnly.id);

    const frSees = await discoverIds(veteranFr);
    expect(frSees).toEqual(expect.arrayContaining([open.id, oldOnly.id, frenchOnly.id]));
    // A search and a small page go through the same filter.
    expect(await discoverIds(young, '/api/servers?q=veterans')).toEqual([]);
    expect(await discoverIds(veteranEn, '/api/servers?q=veterans')).toEqual([oldOnly.id]);
  });

  it('/farm lists what Discover lists', async () => {
    const farm = async (client: TestClient) =>
      (await findFarmPage(app.server.ctx, client.user!.id, 0, 'salon')).campaigns.map((c) => c.id);
    expect(await farm(veteranEn)).toEqual([]);
    expect(await farm(veteranFr)).toEqual([frenchOnly.id]);
  });

  it('the website join refuses a member outside the audience with a 403 and writes nothing', async () => {
    for (const [client, campaign] of [
      [young, oldOnly],
      [veteranEn, frenchOnly],
    ] as const) {
      const res = await client.post(`/api/servers/${campaign.id}/join`);
      expect(res).toMatchObject({ status: 403, body: { message: TARGETING_MESSAGES.notForYou } });
    }
    const rows = await app.query<{ n: number }>(
      sql`SELECT COUNT(*) AS "n" FROM server_joins WHERE server_id IN (${oldOnly.id}, ${frenchOnly.id})`,
    );
    expect(Number(rows[0]!.n)).toBe(0);
    // Members in the audience join as usual.
    expect((await veteranFr.post(`/api/servers/${frenchOnly.id}/join`)).status).toBe(200);
    expect((await veteranEn.post(`/api/servers/${oldOnly.id}/join`)).status).toBe(200);
  });

  it('a featured targeted campaign leaves the featured list of members outside its audience', async () => {
    const res = await submit({ language: 'fr' }, { name: 'Etoile' });
    expect((await owner.post(`/api/servers/${res.body.id}/promote`)).status).toBe(200);
    expect(await discoverIds(veteranEn, '/api/servers/featured')).not.toContain(res.body.id);
    expect(await discoverIds(veteranFr, '/api/servers/featured')).toContain(res.body.id);
    // Its owner still sees it (as "Your Server").
    expect(await discoverIds(owner, '/api/servers/featured')).toContain(res.body.id);
  });

  it('the no-bot claim refuses a member outside the audience, and pays nothing', async () => {
    const res = await submit({ language: 'fr' }, { nobot: true, name: 'Quiet Francais' });
    expect(res.status).toBe(201);
    // A pending join recorded before (e.g. by an older version): the claim is refused all the same.
    await addJoin(app, res.body.id, veteranEn);
    app.clock.advance(60_000);
    const before = await veteranEn.balanceCents();
    const claim = await veteranEn.post(`/api/servers/${res.body.id}/claim-nobot`);
    expect(claim).toMatchObject({ status: 403, body: { message: TARGETING_MESSAGES.notForYou } });
    expect(await veteranEn.balanceCents()).toBe(before);
  });

  it('reads the language from the Discord locale at each sign-in', async () => {
    const switcher = await member('target_switch', 400, 'en-GB');
    expect(await discoverIds(switcher)).not.toContain(frenchOnly.id);
    app.sim.state.setUserLocale(switcher.user!.discordId, 'fr');
    const again = await app.signIn('target_switch');
    expect(await discoverIds(again)).toContain(frenchOnly.id);
  });
});
