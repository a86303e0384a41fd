import { Events } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../clock.ts';
import { readMetric } from '../metrics.ts';
import { readCampaign } from '../test/factories.ts';
import type { TestApp, TestClient } from '../test/harness.ts';
import { balanceOf, createBotCampaign, findJoin, startBotTestApp, verifyMember } from './bot-test-kit.ts';
import { chargeHeld, listHeld, NotHeldError, releaseHeld } from './held-joins.ts';
import { reconcile } from './reconcile.ts';

// Issue 29 item 7: the reconciliation safety valve held charges with no operator tool, and once the
// stay passed those joins left reconciliation's scope for good. Held removals are now recorded, stay in
// scope past the stay, show in a metric, and an operator charges or releases them with a reason.

let app: TestApp;
let owner: TestClient;
let n = 0;

async function gatewayBack(): Promise<void> {
  const resumed = new Promise((r) => app.server.background.bot!.client!.once(Events.ShardResume, r));
  app.sim.state.setGatewayOnline(true);
  await resumed;
}

beforeAll(async () => {
  app = await startBotTestApp();
  owner = await app.signIn('held_owner');
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

describe('removals held by the safety valve', () => {
  it('stay in scope past the stay, show in the metric, and are charged or released by an operator with a reason', async () => {
    const { guild, campaign } = await createBotCampaign(app, owner, { slots: 10 });
    const members: TestClient[] = [];
    for (let i = 0; i < 10; i++)
      members.push(await verifyMember(app, await app.signIn(`held_member_${++n}`), guild.id, campaign.id));
    const before = await Promise.all(members.map((m) => balanceOf(app, m)));
    const absent = members.slice(0, 5);
    const firstRunAt = app.clock.now() + HOUR;
    app.clock.advance(HOUR);
    app.sim.state.setGatewayOnline(false);
    try {
      for (const m of absent) app.sim.state.removeMember(guild.id, m.user!.discordId, { reason: 'leave' });
      expect(await reconcile(app.server.ctx)).toMatchObject({ left: 0, heldBack: 1, held: 5 });
      expect(await readMetric('coinsync_reconcile_held_joins')).toBe(5);

      // Three days later the 2-day stay is over: the held joins are still looked at, still held.
      app.clock.advance(3 * DAY);
      expect(await reconcile(app.server.ctx)).toMatchObject({ left: 0, heldBack: 1, held: 5 });
      const held = await listHeld(app.server.ctx.store.read);
      expect(held.map((h) => h.discordUserId).sort()).toEqual(absent.map((m) => m.user!.discordId).sort());
      expect(held.every((h) => h.firstAbsentAt === firstRunAt && h.holds === 2)).toBe(true);

      // The operator: one really left (charged as of the first run, inside its stay), one is let go.
      const [charged, released, back] = [absent[0]!, absent[1]!, absent[2]!];
      const hold = (m: TestClient) => ({ guildId: guild.id, discordUserId: m.user!.discordId });
      expect(await chargeHeld(app.server.ctx, hold(charged), 'left during the incident; confirmed')).toEqual({
        recorded: 1,
        penalized: 1,
      });
      expect(await releaseHeld(app.server.ctx, hold(released), 'Discord incident; not their doing')).toEqual({
        recorded: 1,
        penalized: 0,
      });
      await expect(chargeHeld(app.server.ctx, hold(released), 'twice')).rejects.toBeInstanceOf(NotHeldError);
      expect(await findJoin(app, campaign.id, charged.user!.id)).toMatchObject({
        hasLeft: true,
        leftReason: 'leave',
        penalized: true,
        leftAt: firstRunAt,
      });
      expect(await balanceOf(app, charged)).toBe(before[0]! - 200);
      expect(await findJoin(app, campaign.id, released.user!.id)).toMatchObject({
        hasLeft: true,
        leftReason: 'unknown',
        penalized: false,
      });
      expect(await balanceOf(app, released)).toBe(before[1]);
      expect((await readCampaign(app.server.ctx.store, campaign.id))?.membersRemaining).toBe(1);
      expect(app.logLines.some((l) => l.includes('operator: held removal charged'))).toBe(true);

      // One shows up again: its hold is lifted. Two absent of three is no longer unusual (the valve
      // needs 5): the next run settles them as the leaves they were when first found absent.
      app.sim.state.addMember(guild.id, back.user!.discordId);
      const after = await reconcile(app.server.ctx);
      expect(after).toMatchObject({ left: 2, heldBack: 0, held: 0 });
      expect(await readMetric('coinsync_reconcile_held_joins')).toBe(0);
      expect(await findJoin(app, campaign.id, back.user!.id)).toMatchObject({ hasLeft: false });
      for (const [i, m] of [absent[3]!, absent[4]!].entries()) {
        expect(await findJoin(app, campaign.id, m.user!.id)).toMatchObject({
          hasLeft: true,
          leftReason: 'leave',
          penalized: true,
          leftAt: firstRunAt,
        });
        expect(await balanceOf(app, m)).toBe(before[3 + i]! - 200);
      }
    } finally {
      await gatewayBack();
    }
  });
});
