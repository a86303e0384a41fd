import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readJoins } from '../test/factories.ts';
import type { ApiDiscoverServer, ApiJoinPace } from '../shared/api-types.ts';
import { HOUR } from '../clock.ts';

// Members' Discord accounts (issue 26 item 2, decision 038): a pace of joins per member per hour and
// per day, decided on the server (429 + Retry-After), safe under concurrent joins; Discord's server cap
// read from the member's own guild list (100, or 200 with Nitro); Discover leaves out servers the
// member is already in (issue 28 item 4). Runs on both engines (vitest.pg.config.ts).

let app: TestApp;
let owner: TestClient;
const store = () => app.server.ctx.store;
const id = (c: TestClient) => c.user!.id;

beforeAll(async () => {
  app = await startTestApp({ env: { JOIN_PACE_PER_HOUR: '3', JOIN_PACE_PER_DAY: '5' } });
  owner = await app.signIn('pace_owner');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function joinRowsOf(userId: string): Promise<number> {
  const rows = await app.query<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM server_joins WHERE user_id = ${userId}`,
  );
  return Number(rows[0]!.n);
}

describe('join pace', () => {
  it('refuses the join past the hourly pace with 429, Retry-After and a message; nothing is written', async () => {
    const member = await app.signIn('pace_hourly');
    const campaigns = await Promise.all(
      Array.from({ length: 4 }, () => insertCampaign(store(), { ownerId: id(owner) })),
    );
    for (const c of campaigns.slice(0, 3))
      expect((await member.post(`/api/servers/${c.id}/join`)).status).toBe(200);

    const pace = await member.get<ApiJoinPace>('/api/joins/pace');
    expect(pace.body).toMatchObject({
      nextJoinAt: new Date(app.clock.now() + HOUR).toISOString(),
      waitSeconds: 3600,
      perHour: 3,
      perDay: 5,
      joinsLastHour: 3,
      joinsLastDay: 3,
    });

    app.clock.advance(48 * 60_000);
    const refused = await member.post(`/api/servers/${campaigns[3]!.id}/join`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(12 * 60));
    expect(refused.body).toEqual({
      message: 'To keep your Discord account safe, you can join 3 servers an hour. Next join in 12 min.',
    });
    expect(await readJoins(store(), campaigns[3]!.id)).toHaveLength(0);

    // A retry of a join already made is the same join: not refused, not counted twice.
    expect((await member.post(`/api/servers/${campaigns[0]!.id}/join`)).status).toBe(200);

    app.clock.advance(12 * 60_000);
    // The retry above moved one join to "12 minutes ago": the hour now holds two, room for one.
    expect((await member.post(`/api/servers/${campaigns[3]!.id}/join`)).status).toBe(200);
    expect(await joinRowsOf(id(member))).toBe(4);
  });

  it('refuses past the daily pace with the day in the message', async () => {
    const member = await app.signIn('pace_daily');
    const campaigns = await Promise.all(
      Array.from({ length: 6 }, () => insertCampaign(store(), { ownerId: id(owner) })),
    );
    for (const [i, c] of campaigns.slice(0, 5).entries()) {
      if (i > 0) app.clock.advance(HOUR);
      expect((await member.post(`/api/servers/${c.id}/join`)).status).toBe(200);
    }
    app.clock.advance(HOUR);
    const refused = await member.post<{ message: string }>(`/api/servers/${campaigns[5]!.id}/join`);
    expect(refused.status).toBe(429);
    // The first of the five was five hours ago: the day lets the next one in 19 hours.
    expect(refused.headers.get('retry-after')).toBe(String(19 * 3600));
    expect(refused.body.message).toBe(
      'To keep your Discord account safe, you can join 5 servers a day. Next join in 19 h.',
    );
  });

  it('counts a retry of an old pending join as a new join (the member accepts an invite again)', async () => {
    const member = await app.signIn('pace_retry');
    const [old, ...fresh] = await Promise.all(
      Array.from({ length: 4 }, () => insertCampaign(store(), { ownerId: id(owner) })),
    );
    expect((await member.post(`/api/servers/${old!.id}/join`)).status).toBe(200);
    app.clock.advance(2 * 24 * HOUR);
    for (const c of fresh) expect((await member.post(`/api/servers/${c.id}/join`)).status).toBe(200);
    const again = await member.post(`/api/servers/${old!.id}/join`);
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('3600');
  });

  it('lets concurrent joins of one member through only up to the pace', async () => {
    const member = await app.signIn('pace_racer');
    const campaigns = await Promise.all(
      Array.from({ length: 10 }, () => insertCampaign(store(), { ownerId: id(owner) })),
    );
    const results = await Promise.all(campaigns.map((c) => member.post(`/api/servers/${c.id}/join`)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(7).fill(429)]);
    expect(await joinRowsOf(id(member))).toBe(3);
  });
});

describe("Discord's server cap", () => {
  it('refuses a join past 100 servers and names the joins that are safe to leave; Nitro lifts it to 200', async () => {
    const member = await app.signIn('cap_member');
    const discordId = member.user!.discordId;
    // The member already owns 100 servers in Discord (owners count like members).
    app.sim.state.createGuilds({ count: 100, ownerId: discordId, namePrefix: 'Mine' });
    // One earlier join here is past its minimum stay: safe to leave.
    const stayed = await insertCampaign(store(), { ownerId: id(owner), name: 'Old Friends' });
    await app.exec(sql`INSERT INTO server_joins (id, user_id, server_id, joined_at, verified, verified_at,
      coins_awarded, min_stay_ms, reward_cents, penalty_cents)
      VALUES (${'cap-join-1'}, ${id(member)}, ${stayed.id}, ${0}, TRUE, ${0}, TRUE, ${0}, ${50}, ${200})`);
    const campaign = await insertCampaign(store(), { ownerId: id(owner), name: 'Full Up' });

    const refused = await member.post<{ message: string }>(`/api/servers/${campaign.id}/join`);
    expect(refused).toMatchObject({ status: 409 });
    expect(refused.body.message).toBe(
      'Your Discord account is in 100 servers, the most Discord allows without Nitro: Discord would refuse this invite. Already safe to leave: Old Friends.',
    );
    expect(await readJoins(store(), campaign.id)).toHaveLength(0);
    expect((await member.get<ApiJoinPace>('/api/joins/pace')).body).toMatchObject({
      guildCount: 100,
      guildCap: 100,
    });

    // With Nitro (premium_type 2 on GET /users/@me) the same account may be in 200 servers.
    app.sim.state.setPremiumType(discordId, 2);
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect((await member.get<ApiJoinPace>('/api/joins/pace')).body.guildCap).toBe(200);
  });

  it('the simulator refuses a join past the cap as Discord does (30001) and reports premium_type', async () => {
    const user = app.sim.state.createUser({ username: 'sim_cap_user' });
    const other = app.sim.state.createUser({ username: 'sim_cap_owner' });
    const guilds = app.sim.state.createGuilds({ count: 101, ownerId: other.id, namePrefix: 'Cap' });
    for (const g of guilds.slice(0, 100)) app.sim.state.addMember(g.id, user.id);
    // The invite page a member accepts on: refused with Discord's message.
    const invite = app.sim.state.createInvite(guilds[100]!.id);
    const page = await fetch(`${app.sim.url}/invite/${invite.code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ user_id: user.id }).toString(),
    });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('Maximum number of guilds reached (100)');
    expect(() => app.sim.state.addMember(guilds[100]!.id, user.id)).toThrow(
      expect.objectContaining({ status: 400, code: 30001 }),
    );
    app.sim.state.setPremiumType(user.id, 2);
    expect(app.sim.state.addMember(guilds[100]!.id, user.id)).toBe(true);
  });
});

describe('Discover and already-member servers', () => {
  it('leaves out campaigns of guilds the member is already in (guild list read at sign-in), no-bot ones too', async () => {
    const discordOwner = app.sim.state.findUserByUsername('pace_owner')!;
    const guild = app.sim.state.createGuild({ name: 'Home Base', ownerId: discordOwner.id });
    const noBotGuild = app.sim.state.createGuild({
      name: 'No Bot Home',
      ownerId: discordOwner.id,
      botMember: false,
    });
    const member = app.sim.state.createUser({ username: 'already_there' });
    app.sim.state.addMember(guild.id, member.id);
    app.sim.state.addMember(noBotGuild.id, member.id);
    const regular = await insertCampaign(store(), { ownerId: id(owner), guildId: guild.id });
    const nobot = await insertCampaign(store(), { ownerId: id(owner), kind: 'nobot' });
    await app.exec(sql`UPDATE servers SET invite_guild_id = ${noBotGuild.id} WHERE id = ${nobot.id}`);
    const elsewhere = await insertCampaign(store(), { ownerId: id(owner) });

    const client = await app.signIn('already_there');
    const listed = (await client.get<ApiDiscoverServer[]>('/api/servers?limit=100')).body.map((s) => s.id);
    expect(listed).toContain(elsewhere.id);
    expect(listed).not.toContain(regular.id);
    expect(listed).not.toContain(nobot.id);

    // Someone else still sees them.
    const newcomer = await app.signIn('not_there_yet');
    const theirs = (await newcomer.get<ApiDiscoverServer[]>('/api/servers?limit=100')).body.map((s) => s.id);
    expect(theirs).toEqual(expect.arrayContaining([regular.id, nobot.id, elsewhere.id]));

    // A join attempt reads the list again: a server joined in Discord meanwhile leaves Discover.
    app.sim.state.addMember(app.sim.state.requireGuild(guild.id).id, newcomer.user!.discordId);
    expect((await newcomer.post(`/api/servers/${regular.id}/join`)).status).toBe(409);
    const after = (await newcomer.get<ApiDiscoverServer[]>('/api/servers?limit=100')).body.map((s) => s.id);
    expect(after).not.toContain(regular.id);
  });
});
