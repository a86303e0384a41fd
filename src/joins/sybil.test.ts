import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readJoins } from '../test/factories.ts';
import { accountTooNewMessage } from '../shared/join-schemas.ts';

// Issue 12 item 3: sybil rules. Joins earn only for Discord accounts at least N days old.

let app: TestApp;
let owner: TestClient;

beforeAll(async () => {
  // The default rule (7 days) is on in every test app; the simulator makes accounts from the test clock.
  app = await startTestApp();
  owner = await app.signIn('sybil_owner');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

/** Signs in a simulated Discord account created `ageMs` before the test clock. */
async function accountAged(username: string, ageMs: number): Promise<TestClient> {
  app.sim.state.createUser({ username, accountAgeMs: ageMs });
  return app.signIn(username);
}

describe('minimum Discord account age', () => {
  it('refuses joins from an account younger than 7 days with the date it becomes eligible, and records nothing', async () => {
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id });
    const young = await accountAged('sybil_young', 3 * DAY);
    const res = await young.post(`/api/servers/${campaign.id}/join`);
    const eligibleOn = new Date(app.clock.now() + 4 * DAY).toISOString().slice(0, 10);
    expect(res).toMatchObject({ status: 403, body: { message: accountTooNewMessage(7, eligibleOn) } });
    expect(await readJoins(app.server.ctx.store, campaign.id)).toHaveLength(0);
  });

  it('accepts an account older than 7 days', async () => {
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id });
    const old = await accountAged('sybil_old', 8 * DAY);
    expect((await old.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect(await readJoins(app.server.ctx.store, campaign.id)).toHaveLength(1);
  });

  it('counts the age on the injected clock: an account made through the control API one day ago becomes eligible 6 days later', async () => {
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id });
    const made = await fetch(`${app.sim.url}/control/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'sybil_day_old', accountAgeDays: 1 }),
    });
    expect(made.status).toBe(201);
    const member = await app.signIn('sybil_day_old');
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(403);
    app.clock.advance(6 * DAY);
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
  });

  it('makes a new simulated account 30 days old on the test clock by default (sign-in creates it)', async () => {
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: owner.user!.id });
    const member = await app.signIn('sybil_default_age');
    expect((await member.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
  });
});
