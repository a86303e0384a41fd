import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../clock.ts';
import type { ApiJoin, ApiServer } from '../shared/api-types.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import {
  createBotCampaign,
  findJoin,
  joinViaWebsite,
  startBotTestApp,
  waitFor,
} from '../bot/bot-test-kit.ts';

// Issue 12 item 6: GET /api/joins lists every join with its state, frozen terms and safe-to-leave date.

let app: TestApp;
let owner: TestClient;
let n = 0;

beforeAll(async () => {
  app = await startBotTestApp();
  owner = await app.signIn('myjoins_owner');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

const joinsOf = async (c: TestClient) => (await c.get<ApiJoin[]>('/api/joins')).body;

describe('GET /api/joins', () => {
  it('walks a join through waiting, verified (with its safe-to-leave date), and left early', async () => {
    const member = await app.signIn(`myjoins_member_${++n}`);
    const { guild, campaign } = await createBotCampaign(app, owner, { name: 'Lantern Hall' });
    await joinViaWebsite(member, campaign.id);
    expect(await joinsOf(member)).toMatchObject([
      { campaignId: campaign.id, serverName: 'Lantern Hall', state: 'waiting', canRetry: true, reward: null },
    ]);
    // Pending joins stay on Discover.
    expect((await member.get<ApiServer[]>('/api/servers')).body.map((s) => s.id)).toContain(campaign.id);

    app.sim.state.addMember(guild.id, member.user!.discordId);
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.verified === true);
    const verifiedAt = app.clock.now();
    expect(await joinsOf(member)).toMatchObject([
      {
        state: 'verified',
        reward: '0.50',
        penalty: '2.00',
        safeToLeaveAt: new Date(verifiedAt + 2 * DAY).toISOString(),
        canRetry: false,
      },
    ]);
    expect((await member.get<ApiServer[]>('/api/servers')).body.map((s) => s.id)).not.toContain(campaign.id);

    app.clock.advance(DAY);
    app.sim.state.removeMember(guild.id, member.user!.discordId, { reason: 'leave' });
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.hasLeft === true);
    expect(await joinsOf(member)).toMatchObject([{ state: 'left_early', penalty: '2.00' }]);
  });

  it('says "stayed" after the minimum stay', async () => {
    const member = await app.signIn(`myjoins_member_${++n}`);
    const { guild, campaign } = await createBotCampaign(app, owner);
    await joinViaWebsite(member, campaign.id);
    app.sim.state.addMember(guild.id, member.user!.discordId);
    await waitFor(async () => (await findJoin(app, campaign.id, member.user!.id))?.verified === true);
    app.clock.advance(2 * DAY + SECOND);
    expect(await joinsOf(member)).toMatchObject([{ state: 'stayed' }]);
  });

  it('expires a bot join after 7 days, and a retry makes it pending again', async () => {
    const member = await app.signIn(`myjoins_member_${++n}`);
    const { campaign } = await createBotCampaign(app, owner);
    await joinViaWebsite(member, campaign.id);
    app.clock.advance(6 * DAY);
    await member.get('/api/auth/user'); // keeps the session inside its 7-day idle limit
    app.clock.advance(DAY + SECOND);
    expect(await joinsOf(member)).toMatchObject([{ state: 'expired', canRetry: true }]);
    await joinViaWebsite(member, campaign.id);
    expect(await joinsOf(member)).toMatchObject([
      { state: 'waiting', joinedAt: new Date(app.clock.now()).toISOString() },
    ]);
  });

  it("shows only the member's own joins", async () => {
    const member = await app.signIn(`myjoins_member_${++n}`);
    const other = await app.signIn(`myjoins_member_${++n}`);
    const { campaign } = await createBotCampaign(app, owner);
    await joinViaWebsite(member, campaign.id);
    expect(await joinsOf(other)).toEqual([]);
    expect((await app.anonymous().get('/api/joins')).status).toBe(401);
  });
});
