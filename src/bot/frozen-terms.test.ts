import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign, grantCoins, updateCampaign } from '../test/factories.ts';
import { DAY, SECOND } from '../clock.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import {
  balanceOf,
  createBotCampaign,
  findJoin,
  startBotTestApp,
  verifyMember,
  waitFor,
} from './bot-test-kit.ts';

// Issue 12 item 4: the reward, minimum stay and penalty are frozen on the join row when it is verified.
// A promotion adds featured slots; it changes neither the regular slots left nor earlier members' terms.

let app: TestApp;
let owner: TestClient;
let memberCount = 0;
const newMember = () => app.signIn(`frozen_member_${++memberCount}`);

beforeAll(async () => {
  app = await startBotTestApp();
  owner = await app.signIn('frozen_owner');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

async function verifiedMember(guildId: string, campaignId: string): Promise<TestClient> {
  return verifyMember(app, await newMember(), guildId, campaignId);
}

describe('terms frozen at verification', () => {
  it('a promotion keeps earlier members at 2 days and regular slots at 0.50, and adds 100 featured slots at 0.75', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 3 });
    const early = await verifiedMember(guild.id, campaign.id);
    expect(await findJoin(app, campaign.id, early.user!.id)).toMatchObject({
      rewardCents: 50,
      minStayMs: CAMPAIGN_KIND_RULES.regular.minStayMs,
      penaltyCents: 200,
    });

    await grantCoins(app.server.ctx.store, owner.user!.id, 100_00, app.clock.now());
    const promoted = await owner.post(`/api/servers/${campaign.id}/promote`);
    expect(promoted.status).toBe(200);
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      membersRemaining: 102,
      featuredRemaining: 100,
      isFeatured: true,
      coinReward: 75,
    });
    // The earlier member's stay is still 2 days: leaving after 2 days costs nothing.
    expect(await findJoin(app, campaign.id, early.user!.id)).toMatchObject({
      rewardCents: 50,
      minStayMs: CAMPAIGN_KIND_RULES.regular.minStayMs,
    });

    const late = await verifiedMember(guild.id, campaign.id);
    expect(await findJoin(app, campaign.id, late.user!.id)).toMatchObject({
      rewardCents: 75,
      minStayMs: CAMPAIGN_KIND_RULES.featured.minStayMs,
    });

    app.clock.advance(2 * DAY + SECOND);
    const [earlyBefore, lateBefore] = [await balanceOf(app, early), await balanceOf(app, late)];
    app.sim.state.removeMember(guild.id, early.user!.discordId, { reason: 'leave' });
    app.sim.state.removeMember(guild.id, late.user!.discordId, { reason: 'leave' });
    await waitFor(async () => (await findJoin(app, campaign.id, late.user!.id))?.hasLeft === true);
    await waitFor(async () => (await findJoin(app, campaign.id, early.user!.id))?.hasLeft === true);
    expect(await balanceOf(app, early)).toBe(earlyBefore);
    expect(await balanceOf(app, late)).toBe(lateBefore - 200);
    // The featured member's slot went back to the featured pool.
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      membersRemaining: 102,
      featuredRemaining: 100,
    });
  });

  it('takes featured slots first, then returns to the regular listing at the regular reward', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 3 });
    await updateCampaign(app.server.ctx.store, campaign.id, {
      kind: 'featured',
      isFeatured: true,
      featuredRemaining: 1,
      coinReward: CAMPAIGN_KIND_RULES.featured.rewardCents,
      featuredAt: app.clock.now(),
    });
    const first = await verifiedMember(guild.id, campaign.id);
    expect(await findJoin(app, campaign.id, first.user!.id)).toMatchObject({
      rewardCents: 75,
      minStayMs: CAMPAIGN_KIND_RULES.featured.minStayMs,
    });
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      membersRemaining: 2,
      featuredRemaining: 0,
      isFeatured: false,
      coinReward: 50,
    });
    const second = await verifiedMember(guild.id, campaign.id);
    expect(await findJoin(app, campaign.id, second.user!.id)).toMatchObject({
      rewardCents: 50,
      minStayMs: CAMPAIGN_KIND_RULES.regular.minStayMs,
    });
  });

  it('cannot promote again while featured slots are left', async () => {
    const { campaign } = await createBotCampaign(app, owner, { kind: 'featured', slots: 5 });
    await grantCoins(app.server.ctx.store, owner.user!.id, 100_00, app.clock.now());
    const res = await owner.post(`/api/servers/${campaign.id}/promote`);
    expect(res.status).toBe(409);
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      membersRemaining: 5,
      featuredRemaining: 5,
    });
  });
});
