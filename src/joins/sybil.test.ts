import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { createCampaign, findJoins } from '../test/factories.ts';
import { generateSnowflake } from '../sim/discord/snowflake.ts';
import { accountTooNewMessage } from '../shared/join-schemas.ts';

// Issue 12 item 3: sybil rules. Joins earn only for Discord accounts at least N days old.

let app: TestApp;
let owner: TestClient;

beforeAll(async () => {
  app = await startTestApp({ env: { MIN_DISCORD_ACCOUNT_AGE_DAYS: '7' } });
  owner = await app.signIn('sybil_owner');
});
afterAll(() => app.close());
afterEach(() => app.assertLedger());

/** Signs in a simulated Discord account created `ageMs` before the test clock. */
async function accountAged(username: string, ageMs: number): Promise<TestClient> {
  app.sim.state.createUser({ username, id: generateSnowflake(app.clock.now() - ageMs) });
  return app.signIn(username);
}

describe('minimum Discord account age', () => {
  it('refuses joins from an account younger than 7 days with the date it becomes eligible, and records nothing', async () => {
    const campaign = createCampaign(app.server.ctx.db, { ownerId: owner.user!.id });
    const young = await accountAged('sybil_young', 3 * DAY);
    const res = await young.post(`/api/servers/${campaign.id}/join`);
    const eligibleOn = new Date(app.clock.now() + 4 * DAY).toISOString().slice(0, 10);
    expect(res).toMatchObject({ status: 403, body: { message: accountTooNewMessage(7, eligibleOn) } });
    expect(findJoins(app.server.ctx.db, campaign.id)).toHaveLength(0);
  });

  it('accepts an account older than 7 days', async () => {
    const campaign = createCampaign(app.server.ctx.db, { ownerId: owner.user!.id });
    const old = await accountAged('sybil_old', 8 * DAY);
    expect((await old.post(`/api/servers/${campaign.id}/join`)).status).toBe(200);
    expect(findJoins(app.server.ctx.db, campaign.id)).toHaveLength(1);
  });
});
