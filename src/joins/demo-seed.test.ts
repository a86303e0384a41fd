import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { servers, transactions } from '../db/schema.ts';
import type { ApiServer } from '../shared/api-types.ts';
import { DEMO_CAMPAIGNS, seedDiscoverDemo } from './demo-seed.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  app.sim.state.seedDemo();
});
afterAll(() => app.close());

describe('seedDiscoverDemo', () => {
  it('creates the demo campaigns once, paid through the ledger', async () => {
    seedDiscoverDemo(app.server.ctx, app.sim);
    const countTx = () => app.server.ctx.db.select().from(transactions).all().length;
    const txAfterFirst = countTx();
    seedDiscoverDemo(app.server.ctx, app.sim);
    expect(countTx()).toBe(txAfterFirst);
    const rows = app.server.ctx.db.select().from(servers).all();
    expect(rows.map((r) => r.id).sort()).toEqual(DEMO_CAMPAIGNS.map((c) => c.id).sort());
    expect(rows.filter((r) => r.isFeatured)).toHaveLength(2);
    expect(rows.filter((r) => r.serverId === null)).toHaveLength(2);
    app.assertLedger();

    // Invite links resolve in the simulator.
    for (const row of rows) {
      const code = row.inviteLink.split('/invite/')[1] ?? '';
      expect(app.sim.state.findInvite(code), row.name).toBeDefined();
    }

    // alex owns Pixel Raiders (featured) and Anime Haven (regular).
    const alex = await app.signIn('alex');
    const alexView = (await alex.get<ApiServer[]>('/api/servers')).body.map((s) => s.name);
    expect(alexView).toContain('Pixel Raiders');
    expect(alexView).not.toContain('Anime Haven');
    expect(await alex.balanceCents()).toBe(500 + 50_000 - 10_000 - 4_000);

    // sam is already in Pixel Raiders on Discord; casey is not.
    const sam = await app.signIn('sam');
    const pixel = DEMO_CAMPAIGNS[0]!.id;
    expect((await sam.post(`/api/servers/${pixel}/join`)).status).toBe(409);
    const casey = await app.signIn('casey');
    expect((await casey.post(`/api/servers/${pixel}/join`)).status).toBe(200);
    app.assertLedger();
  });
});
