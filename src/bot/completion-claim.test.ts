import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCampaign, insertCampaign } from '../test/factories.ts';
import type { AppContext } from '../context.ts';
import type { PgStore } from '../db/engine.ts';
import { openPgStore } from '../db/pg-store.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import {
  claimCompletionDm,
  COMPLETION_DM_LEASE_MS,
  COMPLETION_DM_RETRY_DELAYS_MS,
  notifyCompletedCampaign,
  notifyPendingCompletions,
} from './completion-notice.ts';

// The completion DM is claimed on the campaign row (decision 028): two bot processes — here two
// contexts — finishing the same campaign at once send one DM; a claim whose process died or whose send
// failed is taken again after its lease or retry wait, not before. The services reach the database
// through ctx.store. On PostgreSQL (TEST_DB=pg) `second` has a store of its own (its own pool, as another
// process would); on SQLite it shares the first context's store (two SQLite writer connections in one
// thread would wait on each other's locks).

let app: TestApp;
let otherStore: PgStore | undefined;
/** A second bot process's view: the same services; on PostgreSQL its own connections. */
let second: AppContext;
let owner: TestClient;
let count = 0;

beforeAll(async () => {
  app = await startTestApp();
  const { database } = app.server.ctx.config;
  if (database.kind === 'pg') otherStore = await openPgStore(database.url);
  second = { ...app.server.ctx, store: otherStore ?? app.server.ctx.store };
  owner = await app.signIn('claim_owner');
});
afterAll(async () => {
  await otherStore?.close();
  await app.close();
});

/** A campaign whose last slot was just taken, in a guild the owner shares with the bot (so DMs reach them). */
async function finishedCampaign(): Promise<{ id: string; name: string }> {
  count += 1;
  const name = `Claimed Campaign ${count}`;
  const guild = app.sim.state.createGuild({ name, ownerId: owner.user!.discordId });
  const campaign = await insertCampaign(app.server.ctx.store, {
    ownerId: owner.user!.id,
    name,
    guildId: guild.id,
    membersRemaining: 0,
    initialMemberSlots: 3,
  });
  return { id: campaign.id, name };
}

const dmsAbout = (name: string) =>
  app.sim.state.listDms({ userId: owner.user!.discordId }).filter((d) => d.content.includes(name));

describe('completion DM claim', () => {
  it('two bot processes finishing the same campaign at once: one DM', async () => {
    for (let round = 0; round < 5; round++) {
      const campaign = await finishedCampaign();
      const outcomes = await Promise.all([
        notifyCompletedCampaign(app.server.ctx, campaign.id),
        notifyCompletedCampaign(second, campaign.id),
        notifyPendingCompletions(second),
        notifyPendingCompletions(app.server.ctx),
      ]);
      const sent = outcomes.map(Number).reduce((a, b) => a + b, 0);
      expect(sent, `round ${round}`).toBe(1);
      expect(dmsAbout(campaign.name)).toHaveLength(1);
      expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
        completionNotificationSent: true,
        completionDmRetryAt: null,
      });
    }
  });

  it('a claim whose process died is taken again after the lease, not before', async () => {
    const campaign = await finishedCampaign();
    // Process one claims and dies before sending.
    expect(await claimCompletionDm(app.server.ctx, campaign.id, app.clock.now())).toBe(true);
    expect(await notifyCompletedCampaign(second, campaign.id)).toBe(false);
    app.clock.advance(COMPLETION_DM_LEASE_MS - 1);
    expect(await notifyPendingCompletions(second)).toBe(0);
    expect(dmsAbout(campaign.name)).toHaveLength(0);
    app.clock.advance(1);
    expect(await notifyPendingCompletions(second)).toBe(1);
    expect(dmsAbout(campaign.name)).toHaveLength(1);
    expect(await notifyCompletedCampaign(app.server.ctx, campaign.id)).toBe(false);
  });

  it('a failed send is retried after its wait by whichever process comes first, once', async () => {
    const campaign = await finishedCampaign();
    app.sim.state.rateLimits.configure({ enabled: false });
    app.sim.state.unreliable.configure({ rate: 1, faults: ['server-error'], seed: 3 });
    try {
      expect(await notifyCompletedCampaign(app.server.ctx, campaign.id)).toBe(false);
    } finally {
      app.sim.state.unreliable.reset();
      app.sim.state.rateLimits.configure({ enabled: true });
    }
    const wait = COMPLETION_DM_RETRY_DELAYS_MS[0];
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      completionDmAttempts: 1,
      completionDmRetryAt: app.clock.now() + wait,
      completionNotificationSent: false,
    });
    // Not due yet, in either process.
    expect(await notifyCompletedCampaign(second, campaign.id)).toBe(false);
    expect(await notifyPendingCompletions(app.server.ctx)).toBe(0);
    app.clock.advance(wait);
    const outcomes = await Promise.all([
      notifyPendingCompletions(second),
      notifyPendingCompletions(app.server.ctx),
    ]);
    expect(outcomes.reduce((a, b) => a + b, 0)).toBe(1);
    expect(dmsAbout(campaign.name)).toHaveLength(1);
    expect(await readCampaign(app.server.ctx.store, campaign.id)).toMatchObject({
      completionNotificationSent: true,
      completionDmAttempts: 1,
    });
  }, 30_000);
});
