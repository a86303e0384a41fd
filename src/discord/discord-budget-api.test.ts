import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readCampaign, readJoins } from '../test/factories.ts';
import { createGuildWithInvite, campaignsOf, signInWithCoins } from '../campaigns/test-support.ts';

// Issue 26 (review of items 3-6): the person deadline is a budget per request, not per Discord call.
// A route whose calls each wait less than PERSON_DEADLINE_MS (4 s) but together more answers 503
// "Discord is busy" when its budget runs out, and writes nothing. Before, each call had its own 4 s,
// so a request of three calls could wait ~12 s and then went through. No timing is asserted: Discord
// asks for 2.5 s on each of two calls (5 s together), and the outcome tells which rule ran.

let app: TestApp;
let owner: TestClient;
const store = () => app.server.ctx.store;

beforeAll(async () => {
  app = await startTestApp();
  owner = await signInWithCoins(app, 'budget_owner', 45);
});
afterAll(() => app.close());
afterEach(() => {
  app.sim.state.unreliable.reset();
  return app.checkLedger();
});

const slow = (path: string) =>
  app.sim.state.unreliable.inject({ fault: 'rate-limit', retryAfterSeconds: 2.5, path });

describe('a request waits on Discord for one deadline in total', () => {
  it('Join: guild list and member check each held 2.5 s → 503 busy, no join recorded', async () => {
    const member = await app.signIn('budget_member');
    const campaign = await insertCampaign(store(), { ownerId: owner.user!.id });
    slow('/users/@me/guilds'); // the member's guild list: 2.5 s, within the budget, waited out
    slow('/members/'); // the bot's member check: 2.5 s more, past what is left → busy
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'Discord is busy — try again in 3 s' });
    expect(res.headers.get('retry-after')).toBe('3');
    expect(await readJoins(store(), campaign.id)).toHaveLength(0);
    expect((await readCampaign(store(), campaign.id))?.membersRemaining).toBe(10);
    // Both calls were asked of Discord; the second was given up, not waited out.
    expect(app.sim.state.unreliable.injected.rateLimit).toBe(2);
  });

  it('Submit: invite and ownership each held 2.5 s → 503 busy, no campaign, no debit', async () => {
    const { link } = createGuildWithInvite(app, owner, { name: 'Budget Day' });
    const balance = await owner.balanceCents();
    const campaigns = (await campaignsOf(app, owner)).length;
    slow('/invites/');
    slow('/users/@me/guilds');
    const res = await owner.post('/api/servers', { name: 'Budget Day', inviteLink: link, coinReward: '5' });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'Discord is busy — try again in 3 s' });
    expect(await owner.balanceCents()).toBe(balance);
    expect((await campaignsOf(app, owner)).length).toBe(campaigns);
  });

  it('one slow call within the budget still gets its answer', async () => {
    const member = await app.signIn('budget_member_2');
    const campaign = await insertCampaign(store(), { ownerId: owner.user!.id });
    slow('/members/');
    const res = await member.post(`/api/servers/${campaign.id}/join`);
    expect(res.status).toBe(200);
    expect(await readJoins(store(), campaign.id)).toHaveLength(1);
  });
});
