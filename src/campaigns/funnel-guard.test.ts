import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { createGuildWithInvite, giveCoins, campaignsOf } from './test-support.ts';
import { managerTooNewMessage } from './funnel-guard.ts';

// Issue 29 item 2 / decision 043: throwaway accounts given Manage Server in a farmer's guild funnelled
// their welcome bonus and timed rewards into its campaigns. A manager who does not own the guild spends
// on it only with a Discord account as old as joins require (MIN_DISCORD_ACCOUNT_AGE_DAYS, 7).

let app: TestApp;
let farmer: TestClient;

async function account(username: string, ageDays: number, coins: number): Promise<TestClient> {
  app.sim.state.createUser({ username, accountAgeMs: ageDays * DAY });
  const client = await app.signIn(username);
  if (coins > 0) await giveCoins(app, client, coins);
  return client;
}

beforeAll(async () => {
  app = await startTestApp();
  farmer = await account('funnel_farmer', 400, 0);
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('spending on a guild one manages but does not own', () => {
  it('refuses a 0-day manager for regular, featured and no-bot campaigns (403 saying when), writing nothing', async () => {
    const { guild, link } = createGuildWithInvite(app, farmer, { name: 'Farm Hall' });
    const fresh = await account('funnel_fresh', 0, 150);
    app.sim.state.addMember(guild.id, fresh.user!.discordId);
    app.sim.state.setManageGuild(guild.id, fresh.user!.discordId, true);
    const eligibleOn = new Date(app.clock.now() + 7 * DAY).toISOString().slice(0, 10);
    for (const [path, body] of [
      ['/api/servers', { name: 'Farm Hall', inviteLink: link, coinReward: '14' }],
      ['/api/servers', { name: 'Farm Hall', inviteLink: link, isFeaturedIntent: true }],
      ['/api/servers/no-bot', { name: 'Farm Hall', inviteLink: link, memberCount: '14' }],
    ] as const) {
      const res = await fresh.post(path, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: managerTooNewMessage('Farm Hall', 7, eligibleOn) });
    }
    expect(await campaignsOf(app, fresh)).toHaveLength(0);
    expect(await fresh.balanceCents()).toBe(15_500); // 150 + the welcome bonus, untouched
  });

  it("accepts the guild's owner at any account age, and a manager once old enough", async () => {
    const youngOwner = await account('funnel_young_owner', 0, 20);
    const own = createGuildWithInvite(app, youngOwner, { name: 'Young Hall' });
    const mine = await youngOwner.post('/api/servers', {
      name: 'Young Hall',
      inviteLink: own.link,
      coinReward: '5',
    });
    expect(mine.status).toBe(201);

    const { guild, link } = createGuildWithInvite(app, farmer, { name: 'Managed Hall' });
    const manager = await account('funnel_aged_manager', 6, 20);
    app.sim.state.addMember(guild.id, manager.user!.discordId);
    app.sim.state.setManageGuild(guild.id, manager.user!.discordId, true);
    const early = await manager.post('/api/servers', {
      name: 'Managed Hall',
      inviteLink: link,
      coinReward: '5',
    });
    expect(early.status).toBe(403);
    app.clock.advance(DAY + 60_000);
    const later = await manager.post('/api/servers', {
      name: 'Managed Hall',
      inviteLink: link,
      coinReward: '5',
    });
    expect(later.status).toBe(201);
    expect(await manager.balanceCents()).toBe(2000); // 20 + 5 welcome − 5 spent
  });
});
